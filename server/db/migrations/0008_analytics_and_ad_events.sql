CREATE TABLE "analytics_salts" (
	"day" text PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"event" text NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"test_event_code" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "page_views" ADD COLUMN "visitor_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "ad_events_event_id_idx" ON "ad_events" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "ad_events_created_idx" ON "ad_events" USING btree ("created_at","event");--> statement-breakpoint
CREATE UNIQUE INDEX "conversions_order_idx" ON "conversions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "page_views_created_visitor_idx" ON "page_views" USING btree ("created_at","visitor_hash");