CREATE TABLE "attempt_counters" (
	"key" text NOT NULL,
	"client" text NOT NULL,
	"count" integer NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attempt_counters_key_client_pk" PRIMARY KEY("key","client")
);
--> statement-breakpoint
ALTER TABLE "account_tokens" ADD COLUMN "new_email" text;--> statement-breakpoint
CREATE INDEX "attempt_counters_last_idx" ON "attempt_counters" USING btree ("last_at");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "failed_logins";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "last_failed_login_at";