CREATE TABLE "realm_user_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"realm_id" integer NOT NULL,
	"user_id" integer,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "activation_mode" text DEFAULT 'direct' NOT NULL;--> statement-breakpoint
ALTER TABLE "realm_user_links" ADD CONSTRAINT "realm_user_links_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realm_user_links" ADD CONSTRAINT "realm_user_links_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "realm_user_links_token_key" ON "realm_user_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "realm_user_links_user_idx" ON "realm_user_links" USING btree ("user_id","purpose");