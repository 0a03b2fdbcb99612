// Why a component: where a new room lives (platform, and the chat id unless it is a web room) is one choice.
import type { FormErrors } from '../../lib/formErrors.js';
import { useI18n } from '../../lib/i18n.js';
import { Field } from './form.js';
import { PLATFORMS, type RoomPlatform } from './useNewRoom.js';

export function RoomPlace(p: {
  platform: RoomPlatform;
  chatId: string;
  errors: FormErrors;
  onPlatform: (v: RoomPlatform) => void;
  onChatId: (v: string) => void;
}) {
  const { t } = useI18n();
  const e = p.errors;
  return (
    <div class="setup-row">
      <Field id="room-platform" name="platform" label={t('setup.rooms.platform')} errors={e}>
        <select
          id="room-platform"
          value={p.platform}
          onChange={(ev) => p.onPlatform(ev.currentTarget.value as RoomPlatform)}
        >
          {PLATFORMS.map((p) => (
            <option value={p}>{p}</option>
          ))}
        </select>
      </Field>
      {p.platform === 'web' ? (
        <p class="muted small" data-testid="room-web-hint">
          {t('setup.rooms.webHint')}
        </p>
      ) : (
        <Field
          id="room-chat"
          name="chatId"
          label={t('setup.rooms.chatId')}
          hint={t('setup.rooms.chatIdHint')}
          errors={e}
        >
          <input id="room-chat" class="mono" value={p.chatId} onInput={(ev) => p.onChatId(ev.currentTarget.value)} />
        </Field>
      )}
    </div>
  );
}
