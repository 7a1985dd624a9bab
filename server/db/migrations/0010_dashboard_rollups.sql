CREATE TABLE "page_view_day_paths" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "page_view_day_paths_day_path_pk" PRIMARY KEY("day","path")
);
--> statement-breakpoint
CREATE TABLE "page_view_days" (
	"day" date PRIMARY KEY NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"sessions" integer NOT NULL,
	"single_page_sessions" integer NOT NULL,
	"session_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "orders_paid_created_idx" ON "orders" USING btree ("created_at","total","tax","supplier_cost","channel") WHERE "orders"."status" IN ('processing', 'shipped', 'delivered', 'completed');--> statement-breakpoint
CREATE INDEX "reviews_created_idx" ON "reviews" USING btree ("created_at");