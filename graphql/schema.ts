// Assembles the schema from the type modules (each registers itself on the builder).
import { builder } from './builder.js';
import './types/enums.js';
import './types/message.js';
import './types/turn.js';
import './types/session.js';
import './types/dialogue.js';
import './types/trace.js';
import './types/config.js';
import './types/mutationsConversation.js';
import './types/mutationsMemory.js';
import './types/mutationsDialogue.js';
import './types/queryFilters.js';
import './types/participants.js';
import './types/relations.js';
import './types/queriesDialogue.js';
import './types/search.js';
import './types/memory.js';
import './types/warnings.js';
import './types/stats.js';
import './types/subscriptions.js';
import './types/rooms.js';
import './types/roomEvents.js';
import './types/knowledge.js';
import './types/webUsers.js';
import './types/stories.js';
import './types/viewer.js';

export const schema = builder.toSchema({ sortSchema: true });
