CREATE TABLE "best_sellers" (
	"product_id" text PRIMARY KEY NOT NULL,
	"score" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "best_sellers" ADD CONSTRAINT "best_sellers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "best_sellers_score_idx" ON "best_sellers" USING btree ("score" DESC NULLS LAST,"product_id");