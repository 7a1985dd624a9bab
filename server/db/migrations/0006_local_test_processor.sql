CREATE TABLE "local_test_idempotency_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_test_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"client_secret" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text DEFAULT 'requires_payment_method' NOT NULL,
	"email" text,
	"metadata" jsonb NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"failure_code" text,
	"failure_message" text,
	"captured_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "local_test_idempotency_keys_created_idx" ON "local_test_idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "local_test_payments_created_idx" ON "local_test_payments" USING btree ("created_at");