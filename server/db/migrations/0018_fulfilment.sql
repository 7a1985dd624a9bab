CREATE TABLE "fulfilments" (
	"order_id" text PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"placed_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"supplier_order_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"supplier_status" text,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fulfilments" ADD CONSTRAINT "fulfilments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fulfilments_due_idx" ON "fulfilments" USING btree ("state","next_attempt_at") WHERE "fulfilments"."state" IN ('queued', 'placing', 'retry');--> statement-breakpoint
CREATE INDEX "fulfilments_check_idx" ON "fulfilments" USING btree ("next_check_at") WHERE "fulfilments"."state" = 'placed';