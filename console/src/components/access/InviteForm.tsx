// A new invite code (admins): how many people it lets in and, optionally, for how many hours.
// The API checks the ranges; its problems show beside the field they name.
import { useState } from 'preact/hooks';
import { ApiError, gql } from '../../lib/api.js';
import { CREATE_INVITE, type InviteView } from '../../lib/accessQueries.js';
import { useI18n } from '../../lib/i18n.js';
import { useSubmit } from '../../lib/useSubmit.js';
import { Field, SetupForm } from '../setup/form.js';

/** A field's text as a whole number; undefined when blank, NaN when it is not one. */
const wholeOf = (text: string): number | undefined => {
  const s = text.trim();
  if (!s) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : NaN;
};

export function InviteForm(p: { onCreated: (invite: InviteView) => void }) {
  const { t } = useI18n();
  const [maxUses, setMaxUses] = useState('1');
  const [hours, setHours] = useState('');
  const submit = useSubmit(async () => {
    const uses = wholeOf(maxUses);
    const expiresInHours = wholeOf(hours);
    // Only what cannot be sent as an Int is caught here; the ranges are the API's to check.
    for (const [name, v] of [
      ['maxUses', uses ?? NaN],
      ['expiresInHours', expiresInHours],
    ] as const)
      if (Number.isNaN(v)) throw new ApiError(`${name}: ${t('access.invites.wholeNumber')}`, 'BAD_REQUEST', 400);
    return (await gql(CREATE_INVITE, { maxUses: uses!, expiresInHours: expiresInHours ?? null })).createInvite;
  }, ['maxUses', 'expiresInHours']);
  const create = async () => {
    const invite = await submit.run();
    if (!invite) return;
    setHours('');
    p.onCreated(invite);
  };
  return (
    <SetupForm
      needs="admin"
      busy={submit.busy}
      errors={submit.errors}
      submitLabel={t('access.invites.create')}
      onSubmit={() => void create()}
      testId="invite-form"
    >
      <Field
        id="invite-max-uses"
        name="maxUses"
        label={t('access.invites.maxUses')}
        hint={t('access.invites.maxUsesHint')}
        errors={submit.errors}
      >
        <input
          id="invite-max-uses"
          type="number"
          inputMode="numeric"
          min={1}
          value={maxUses}
          onInput={(e) => setMaxUses(e.currentTarget.value)}
        />
      </Field>
      <Field
        id="invite-hours"
        name="expiresInHours"
        label={t('access.invites.expiresIn')}
        hint={t('access.invites.expiresInHint')}
        errors={submit.errors}
      >
        <input
          id="invite-hours"
          type="number"
          inputMode="numeric"
          min={1}
          value={hours}
          onInput={(e) => setHours(e.currentTarget.value)}
        />
      </Field>
    </SetupForm>
  );
}
