DROP INDEX "page_views_created_idx";--> statement-breakpoint
DROP INDEX "page_views_created_visitor_idx";--> statement-breakpoint
DROP INDEX "page_views_path_created_idx";--> statement-breakpoint
DROP INDEX "page_views_session_idx";--> statement-breakpoint
CREATE INDEX "page_views_created_brin" ON "page_views" USING brin ("created_at") WITH (autosummarize=true);--> statement-breakpoint
ALTER TABLE "page_views" DROP COLUMN "id";