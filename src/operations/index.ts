import type { ControlHandler, ServiceHandler } from './context.js';
import * as audio from './audio.js';
import * as builds from './builds.js';
import * as chat from './chat.js';
import * as clientReport from './client-report.js';
import * as control from './control.js';
import * as accountClocks from './account-clocks.js';
import * as observe from './observe.js';
import * as scenarios from './scenarios.js';
import * as dashboard from './dashboard.js';
import * as deliverables from './deliverables.js';
import * as images from './images.js';
import * as keys from './keys.js';
import * as library from './library.js';
import * as oauthGrants from './oauth-grants.js';
import * as sharing from './sharing.js';
import * as suggestions from './suggestions.js';
import * as targets from './targets.js';
import * as tokens from './tokens.js';

/** The shared-deliverable view is public; the other sharing operations need a key. */
const { getSharedDeliverable, ...shareHandlers } = sharing;

/** Handlers by operationId; the engine checks at start that they match openapi.yaml exactly. */
export const serviceHandlers: Readonly<Record<string, ServiceHandler>> = {
  ...tokens,
  ...targets,
  ...builds,
  ...deliverables,
  ...keys,
  ...oauthGrants,
  ...library,
  ...shareHandlers,
  ...images,
  ...audio,
  ...chat,
  ...suggestions,
};

/** Operations of openapi.yaml that need no key (`security: []`). */
export const publicHandlers: Readonly<Record<string, ControlHandler>> = { getSharedDeliverable };

export const controlHandlers: Readonly<Record<string, ControlHandler>> = { ...control, ...accountClocks, ...observe, ...dashboard, ...scenarios, ...clientReport };
