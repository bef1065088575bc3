/**
 * A session of two clients of two accounts, through a recording proxy: targets with brand kits,
 * a library item, a build completed and downloaded, one failed in critiquing, one still
 * researching, a share link read without a key, a listen version, an image, a key that spends
 * its minute (429), a scope error. What `content-contracts scene` turns into a scene.
 */
export interface SceneFlow {
  /** Every secret the session used or was given: none may reach a scene or its mapping. */
  secrets: string[];
  accounts: string[];
  /** The first account's read-write key. */
  readWrite: string;
}

async function control(base: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function driveSceneFlow(serviceUrl: string, simulatorUrl: string): Promise<SceneFlow> {
  const call = async (method: string, path: string, key: string, body?: unknown, accept = 'application/json') => {
    const res = await fetch(`${serviceUrl}${path}`, { method, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), accept, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    if (res.status >= 500) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return { status: res.status, json: text.startsWith('{') ? JSON.parse(text) : undefined };
  };
  const one = await control(simulatorUrl, '/_sim/accounts', { name: 'Recorded shop', balance: 40, clock: { own: true } });
  const two = await control(simulatorUrl, '/_sim/accounts', { name: 'Recorded agency', balance: 12, clock: { own: true } });
  for (const a of [one, two]) await control(simulatorUrl, `/_sim/accounts/${a.accountId}/clock/freeze`, {});
  const advance = (ms: number) => control(simulatorUrl, `/_sim/accounts/${one.accountId}/clock/advance`, { ms });
  const rw = one.keys.readWrite as string;
  const ro = one.keys.readOnly as string;

  await call('GET', '/api/v1/tokens/balance', rw);
  const acme = (await call('POST', '/api/v1/targets', rw, { name: 'Acme Robotics', slug: 'acme', description: 'Arms for small workshops', brandKit: { voice: 'plain', tone: 'warm' } })).json;
  await call('POST', '/api/v1/targets', rw, { name: 'Beta Labs', slug: 'beta', brandKit: { voice: 'expert', tone: 'calm' } });
  const item = (await call('POST', `/api/v1/targets/${acme.id}/library`, rw, { name: 'R2 arm', type: 'product_blurb', content: 'A six-axis arm.' })).json;
  const done = (await call('POST', '/api/v1/builds', rw, { targetId: acme.id, kind: 'blog', objective: 'Why workshops automate', libraryItemIds: [item.id] })).json;
  const failed = (await call('POST', '/api/v1/builds', rw, { targetId: acme.id, kind: 'press_release', objective: 'Acme opens a factory [fail:critiquing]' })).json;
  let statuses = ['pending'];
  for (let i = 0; i < 60 && !statuses.every((s) => s === 'completed' || s === 'failed'); i++) {
    await advance(60_000);
    statuses = [];
    for (const id of [done.buildId, failed.buildId]) statuses.push((await call('GET', `/api/v1/builds/${id}`, rw)).json.build.status);
  }
  if (statuses.join() !== 'completed,failed') throw new Error(`the builds ended ${statuses.join()}`);
  const view = (await call('GET', `/api/v1/builds/${done.buildId}`, rw)).json;
  const deliverableId = view.deliverables[0].id as string;
  await call('GET', `/api/v1/deliverables/${deliverableId}`, rw);
  await call('GET', `/api/v1/deliverables/${deliverableId}/download?format=md`, rw, undefined, 'text/markdown');
  const share = (await call('POST', `/api/v1/deliverables/${deliverableId}/shares`, rw, {})).json;
  await call('GET', share.url, '');
  await call('POST', `/api/v1/deliverables/${deliverableId}/audio`, rw, { voice: 'aria' });
  await call('POST', '/api/v1/images', rw, { prompt: 'A robot arm in a workshop', style: 'photo' });
  const running = (await call('POST', '/api/v1/builds', rw, { targetId: acme.id, kind: 'how_to', objective: 'Calibrate the arm', researchMode: 'deep' })).json;
  await advance(20_000);
  const reader = (await call('POST', '/api/v1/keys', rw, { name: 'ci reader', scopes: ['svc:read'] })).json;
  await call('GET', '/api/v1/images', reader.value);
  const old = (await call('POST', '/api/v1/targets', rw, { name: 'Old brand', slug: 'old' })).json;
  await call('GET', `/api/v1/targets/${old.id}`, rw);
  await call('DELETE', `/api/v1/targets/${old.id}`, rw);
  // The key made here spends its minute of calls: its last answer is a 429.
  for (let i = 0; i < 70; i++) if ((await call('GET', '/api/v1/tokens/balance', reader.value)).status === 429) break;
  await call('POST', '/api/v1/targets', ro, { name: 'Read only', slug: 'read-only' }); // 403
  for (const path of ['/api/v1/targets', `/api/v1/targets/${acme.id}`, `/api/v1/targets/${acme.id}/library`, '/api/v1/builds', `/api/v1/builds/${done.buildId}`, `/api/v1/builds/${failed.buildId}`, `/api/v1/builds/${running.buildId}`, `/api/v1/deliverables/${deliverableId}/shares`, '/api/v1/audio', '/api/v1/images', '/api/v1/keys', '/api/v1/tokens/balance']) {
    await call('GET', path, rw);
  }
  await call('GET', '/api/v1/targets', ro);
  await call('GET', '/api/v1/builds/00000000-0000-4000-8000-00000000beef', rw); // 404

  const rw2 = two.keys.readWrite as string;
  const gamma = (await call('POST', '/api/v1/targets', rw2, { name: 'Gamma Foods', slug: 'gamma', description: 'Snacks', brandKit: { voice: 'playful', tone: 'bright' } })).json;
  await call('POST', '/api/v1/images', rw2, { prompt: 'A bowl of snacks', style: 'flat', mood: 'playful' });
  await call('GET', `/api/v1/targets/${gamma.id}`, rw2);
  await call('GET', '/api/v1/images', rw2);
  await call('GET', '/api/v1/tokens/balance', rw2);
  return { secrets: [...Object.values(one.keys as Record<string, string>), ...Object.values(two.keys as Record<string, string>), reader.value, share.token], accounts: [one.accountId, two.accountId], readWrite: rw };
}
