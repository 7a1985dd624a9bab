CREATE TABLE "social_shop_category_mappings" (
	"connection_id" text NOT NULL,
	"category_id" text NOT NULL,
	"channel_category_id" text NOT NULL,
	"channel_category_name" text NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "social_shop_category_mappings_connection_id_category_id_pk" PRIMARY KEY("connection_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "social_shop_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"channel" text DEFAULT 'tiktok-shop' NOT NULL,
	"seller_name" text,
	"region" text,
	"access_token_encrypted" text NOT NULL,
	"refresh_token_encrypted" text NOT NULL,
	"access_token_expires_at" timestamp with time zone NOT NULL,
	"refresh_token_expires_at" timestamp with time zone NOT NULL,
	"shops_discovered" integer DEFAULT 0 NOT NULL,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_shop_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"session_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_shop_syncs" (
	"id" text PRIMARY KEY NOT NULL,
	"connection_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"force_all" boolean DEFAULT false NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "social_shop_webhook_events" (
	"notification_id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "social_shop_connections" ALTER COLUMN "shop_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "social_shop_connections" ALTER COLUMN "shop_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "social_shop_connections" ALTER COLUMN "shop_cipher" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "social_shop_connections" ALTER COLUMN "region" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "social_shop_connections" ADD COLUMN "grant_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "social_shop_connections" ADD COLUMN "warehouse_id" text;--> statement-breakpoint
ALTER TABLE "social_shop_connections" ADD COLUMN "orders_searched_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "social_shop_listings" ADD COLUMN "skus" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "social_shop_listings" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "social_shop_listings" ADD COLUMN "image_uris" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "social_shop_listings" ADD COLUMN "pushed_stock" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "social_shop_category_mappings" ADD CONSTRAINT "social_shop_category_mappings_connection_id_social_shop_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."social_shop_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_shop_category_mappings" ADD CONSTRAINT "social_shop_category_mappings_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_shop_syncs" ADD CONSTRAINT "social_shop_syncs_connection_id_social_shop_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."social_shop_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "social_shop_syncs_active_key" ON "social_shop_syncs" USING btree ("connection_id","kind") WHERE "social_shop_syncs"."status" IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "social_shop_syncs_shop_idx" ON "social_shop_syncs" USING btree ("connection_id","kind","started_at");--> statement-breakpoint
ALTER TABLE "social_shop_connections" ADD CONSTRAINT "social_shop_connections_grant_id_social_shop_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."social_shop_grants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_shop_connections" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "social_shop_connections" DROP COLUMN "access_token_encrypted";--> statement-breakpoint
ALTER TABLE "social_shop_connections" DROP COLUMN "refresh_token_encrypted";--> statement-breakpoint
ALTER TABLE "social_shop_connections" DROP COLUMN "access_token_expires_at";--> statement-breakpoint
ALTER TABLE "social_shop_connections" DROP COLUMN "refresh_token_expires_at";