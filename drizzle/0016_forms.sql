CREATE TABLE "form_responses" (
	"id" serial PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"status" text NOT NULL,
	"spam_reason" text,
	"answers" jsonb NOT NULL,
	"files" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"email" text,
	"user_id" integer,
	"locale" text NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_token_uses" (
	"nonce" text PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"realm_id" integer,
	"access" text NOT NULL,
	"default_locale" text NOT NULL,
	"locales" text[] NOT NULL,
	"fields" jsonb NOT NULL,
	"steps" jsonb NOT NULL,
	"success_message" jsonb NOT NULL,
	"redirect_url" text,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"max_responses" integer,
	"notify_emails" text[] NOT NULL,
	"confirmation" boolean DEFAULT false NOT NULL,
	"confirmation_field" text,
	"min_fill_seconds" integer DEFAULT 3 NOT NULL,
	"rate_limit_per_hour" integer DEFAULT 10 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_token_uses" ADD CONSTRAINT "form_token_uses_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_responses_form_idx" ON "form_responses" USING btree ("form_id","submitted_at","id");--> statement-breakpoint
CREATE INDEX "form_responses_email_idx" ON "form_responses" USING btree ("email");--> statement-breakpoint
CREATE INDEX "form_responses_user_idx" ON "form_responses" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "form_token_uses_used_idx" ON "form_token_uses" USING btree ("used_at");--> statement-breakpoint
CREATE UNIQUE INDEX "forms_uid_key" ON "forms" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "forms_realm_idx" ON "forms" USING btree ("realm_id");