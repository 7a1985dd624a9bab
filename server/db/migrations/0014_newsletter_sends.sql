CREATE TABLE "newsletter_deliveries" (
	"issue_id" text NOT NULL,
	"subscriber_id" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'claimed' NOT NULL,
	"error" text,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "newsletter_subscribers_created_idx";--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD COLUMN "sent_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD COLUMN "failed_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD COLUMN "status" text DEFAULT 'sent' NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "confirmation_token_hash" text;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "confirmation_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "newsletter_deliveries_issue_id_newsletter_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."newsletter_issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_deliveries_issue_subscriber_key" ON "newsletter_deliveries" USING btree ("issue_id","subscriber_id");--> statement-breakpoint
CREATE INDEX "newsletter_deliveries_issue_status_idx" ON "newsletter_deliveries" USING btree ("issue_id","status");--> statement-breakpoint
CREATE INDEX "newsletter_issues_created_idx" ON "newsletter_issues" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_subscribers_confirmation_key" ON "newsletter_subscribers" USING btree ("confirmation_token_hash");--> statement-breakpoint
CREATE INDEX "newsletter_subscribers_active_created_idx" ON "newsletter_subscribers" USING btree ("is_active","created_at","id");--> statement-breakpoint
CREATE INDEX "newsletter_subscribers_email_trgm_idx" ON "newsletter_subscribers" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "newsletter_subscribers_created_idx" ON "newsletter_subscribers" USING btree ("created_at","id");