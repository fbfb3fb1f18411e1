import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { failures } from '../../http/responses.js';
import { acting } from '../guard.js';
import { acceptInvitation, inviteMember, MEMBER_INVITATION_DAYS } from '../invitations.js';
import type { RoleTargets } from '../role-targets.js';
import { InvitationAcceptedModel, InvitationAcceptInput, MemberInvitationInput, MemberInvitationModel, TeamMemberModel } from '../schema.js';

const tags = ['Team'];

/** Inviting a team member by email, and the public route its one-time link leads to. */
export function invitationRoutes(ctx: Context, targets: RoleTargets): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, TeamMemberModel, MemberInvitationModel, InvitationAcceptedModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/team_members/invitations', {
      config: { access: 'team.manage' },
      schema: {
        tags, summary: 'Invite a team member',
        description: `Creates the member inactive, with the roles given (checked as in \`POST /team_members\`), and mails a one-time link `
          + `to \`/admin/invitation/{token}\` (the \`member_invitation\` template, in \`locale\`), valid ${MEMBER_INVITATION_DAYS} days, where the member `
          + 'chooses a password. Inviting a pending member (inactive, never chose a password) again sets its name and roles anew and replaces the link '
          + '(the earlier one answers 410); the address of any other member is taken (422).',
        body: MemberInvitationInput, response: { 201: ref(MemberInvitationModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await inviteMember(acting(ctx, request), request.body, targets)));

    app.post('/team_members/invitations/accept', {
      config: { access: 'public' },
      schema: {
        tags, summary: 'Accept a team invitation', security: [],
        description: 'Sets the invited member\'s password (the rules of `POST /team_members`) and makes the member active; the link works once. '
          + 'Then sign in with `POST /session`. 404 for a token no invitation has, 410 for one used, replaced or expired; twenty unknown or spent '
          + 'tokens from one address in an hour lock it until the hour ends (429, with `Retry-After`).',
        body: InvitationAcceptInput, response: { 200: ref(InvitationAcceptedModel), ...failures(404, 410, 422, 429) },
      },
    }, async (request) => acceptInvitation(ctx, request.body, request.ip));
  };
}
