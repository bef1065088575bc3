import { describe, expect, it } from 'vitest';
import { harness, T0, type Harness } from './support/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function brand(h: Harness, slug: string, brandKit: Record<string, string>, key = h.keys.readWrite): Promise<string> {
  const res = await h.post('/api/v1/targets', { name: 'Northside Roasters', slug, description: 'Specialty coffee roaster for home baristas', brandKit }, { key });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function chat(h: Harness, targetId: string, key = h.keys.readWrite): Promise<string> {
  const res = await h.post('/api/v1/chats', { targetId }, { key });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function say(h: Harness, chatId: string, content: string, key = h.keys.readWrite) {
  const res = await h.post(`/api/v1/chats/${chatId}/messages`, { content }, { key });
  expect(res.status).toBe(201);
  return res.body as { chatId: string; message: { id: string; content: string; role: string }; reply: { content: string; references: Array<{ libraryItemId: string; type: string; name: string }> } };
}

async function libraryItem(h: Harness, targetId: string, item: Record<string, string>): Promise<string> {
  const res = await h.post(`/api/v1/targets/${targetId}/library`, item);
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('chat: conversations', () => {
  it('starts a conversation, adds the message and the reply, and keeps the history', async () => {
    const h = harness();
    const targetId = await brand(h, 'northside', { voice: 'expert barista', tone: 'friendly' });
    const created = await h.post('/api/v1/chats', { targetId });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/api/v1/chats/${created.body.id}`);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      targetId,
      title: 'Chat about Northside Roasters',
      messageCount: 0,
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0).toISOString(),
      messages: [],
    });

    h.advance(5_000);
    const exchange = await say(h, created.body.id, 'Can you give me three headlines about espresso machines?');
    expect(exchange.chatId).toBe(created.body.id);
    expect(exchange.message).toMatchObject({ role: 'user', content: 'Can you give me three headlines about espresso machines?', references: [] });
    expect(exchange.reply).toMatchObject({ role: 'assistant', references: [] });
    // It answers the request: headline options, about the subject of the message.
    expect(exchange.reply.content).toContain('headline options on espresso machines');
    expect(exchange.reply.content.split('\n').filter((l) => l.startsWith('- ')).length).toBe(4);

    const got = await h.get(`/api/v1/chats/${created.body.id}`, { key: h.keys.readOnly });
    expect(got.status).toBe(200);
    expect(got.body.messageCount).toBe(2);
    expect(got.body.updatedAt).toBe(new Date(T0 + 5_000).toISOString());
    expect(got.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(got.body.messages[1].content).toBe(exchange.reply.content);
  });

  it('answers different requests differently: ideas, a draft, a definition, a question', async () => {
    const h = harness();
    const chatId = await chat(h, await brand(h, 'northside', { voice: 'expert', tone: 'friendly' }));
    const ideas = await say(h, chatId, 'Any topic ideas for cold brew?');
    expect(ideas.reply.content).toMatch(/^Three ideas on cold brew for /);
    const draft = await say(h, chatId, 'Write an intro about pour-over coffee');
    expect(draft.reply.content).toMatch(/^Here is a draft on pour-over coffee in Northside Roasters\u2019s voice:/);
    const define = await say(h, chatId, 'What is a flat white?');
    expect(define.reply.content).toMatch(/not in Northside Roasters\u2019s glossary yet/);
    const question = await say(h, chatId, 'How often should we post on Instagram?');
    expect(question.reply.content).toMatch(/^On Instagram: /);
    const followUp = await say(h, chatId, 'and another?');
    expect(followUp.reply.content).toMatch(/^On Instagram: /); // keeps the subject of the previous message
    expect(followUp.reply.content).not.toBe(question.reply.content);
  });

  it('speaks in the target\u2019s voice and tone', async () => {
    const h = harness();
    const formal = await chat(h, await brand(h, 'formal-house', { voice: 'authoritative analyst', tone: 'formal' }));
    const playful = await chat(h, await brand(h, 'playful-house', { voice: 'cheeky friend', tone: 'playful' }));
    const formalHello = await say(h, formal, 'Hello');
    expect(formalHello.reply.content).toMatch(/^Dear reader, I\u2019m the Northside Roasters assistant/);
    expect(formalHello.reply.content).toContain('authoritative analyst, with a formal tone');
    expect((await say(h, playful, 'Hello')).reply.content).toMatch(/^(?:Hey there!|Hi friend!) /);
    expect((await say(h, formal, 'How should we sound?')).reply.content).toContain('Keep it precise');
    expect((await say(h, playful, 'What tone should our posts have?')).reply.content).toContain('Keep it light');
  });

  it('names the library items a message relates to, and lists them in references', async () => {
    const h = harness();
    const targetId = await brand(h, 'northside', { voice: 'expert', tone: 'warm' });
    const term = await libraryItem(h, targetId, { type: 'glossary_term', name: 'Cold brew concentrate', content: 'Coffee steeped cold for 18 hours, diluted before serving.' });
    const cta = await libraryItem(h, targetId, { type: 'cta', name: 'Subscribe', content: 'Start your bean subscription', url: 'https://northside.example/subscribe' });
    const blurb = await libraryItem(h, targetId, { type: 'product_blurb', name: 'Kettle Pro', content: 'The Kettle Pro gooseneck kettle pours with barista precision.' });
    const chatId = await chat(h, targetId);

    const define = await say(h, chatId, 'What is cold brew concentrate?');
    expect(define.reply.content).toContain('**Cold brew concentrate** means: Coffee steeped cold for 18 hours');
    expect(define.reply.references).toEqual([{ libraryItemId: term, type: 'glossary_term', name: 'Cold brew concentrate' }]);

    const action = await say(h, chatId, 'Which call to action should close the newsletter?');
    expect(action.reply.content).toContain('\u201cStart your bean subscription\u201d (https://northside.example/subscribe)');
    expect(action.reply.references.map((r) => r.libraryItemId)).toEqual([cta]);

    const kettle = await say(h, chatId, 'Write a paragraph about pouring with a gooseneck kettle');
    expect(kettle.reply.content).toContain('The Kettle Pro gooseneck kettle pours with barista precision.');
    expect(kettle.reply.references.map((r) => r.libraryItemId)).toEqual([blurb]);

    const unrelated = await say(h, chatId, 'Write a paragraph about remote team rituals');
    expect(unrelated.reply.references).toEqual([]);
  });

  it('is deterministic for a seed: the same conversation gets the same replies', async () => {
    const run = async (seed?: string) => {
      const h = harness(seed ? { seed } : {});
      const chatId = await chat(h, await brand(h, 'northside', { voice: 'expert', tone: 'bold' }));
      return [(await say(h, chatId, 'Write a paragraph about latte art')).reply.content, (await say(h, chatId, 'Write a paragraph about latte art')).reply.content];
    };
    const [a1, a2] = await run();
    const [b1, b2] = await run();
    expect([b1, b2]).toEqual([a1, a2]);
    // Each turn has its own randomness: the same message twice gets a fresh reply.
    expect(a2).not.toBe(a1);
    expect((await run('another-seed'))[0]).not.toBe(a1);
  });

  it('bounds a conversation at 100 messages, then answers 409 and writes nothing', async () => {
    const h = harness();
    const chatId = await chat(h, await brand(h, 'northside', { voice: 'expert', tone: 'warm' }));
    for (let i = 0; i < 50; i++) await say(h, chatId, `Question ${i}: how do we grind for espresso?`);
    const full = await h.post(`/api/v1/chats/${chatId}/messages`, { content: 'One more?' });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 'CONFLICT', details: { chatId, maxMessages: 100 } });
    const got = await h.get(`/api/v1/chats/${chatId}`);
    expect(got.body.messageCount).toBe(100);
    expect(got.body.messages).toHaveLength(100);
  });

  it('keeps answering after its target is deleted, from the brand it last saw', async () => {
    const h = harness();
    const targetId = await brand(h, 'northside', { voice: 'expert', tone: 'formal' });
    const chatId = await chat(h, targetId);
    expect((await h.call('DELETE', `/api/v1/targets/${targetId}`)).status).toBe(204);
    expect((await say(h, chatId, 'Hello')).reply.content).toMatch(/^Dear reader, I\u2019m the Northside Roasters assistant/);
  });
});

describe('chat: lists and ownership', () => {
  it('lists conversations newest first, by target, without their messages', async () => {
    const h = harness();
    const a = await brand(h, 'brand-a', { tone: 'warm' });
    const b = await brand(h, 'brand-b', { tone: 'warm' });
    const c1 = await chat(h, a);
    const c2 = (await h.post('/api/v1/chats', { targetId: b, title: 'Launch planning' })).body.id;
    const c3 = await chat(h, a);
    const all = await h.get('/api/v1/chats?limit=2', { key: h.keys.readOnly });
    expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([c3, c2]);
    expect(all.body.data[1]).toEqual(expect.objectContaining({ title: 'Launch planning', messageCount: 0 }));
    expect(all.body.data[0]).not.toHaveProperty('messages');
    expect((await h.get(`/api/v1/chats?cursor=${all.body.nextCursor}`)).body.data.map((c: { id: string }) => c.id)).toEqual([c1]);
    expect((await h.get(`/api/v1/chats?targetId=${a}`)).body.data.map((c: { id: string }) => c.id)).toEqual([c3, c1]);
  });

  it('keeps conversations to their account, and checks scopes', async () => {
    const h = harness();
    const targetId = await brand(h, 'northside', { tone: 'warm' });
    const chatId = await chat(h, targetId);
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    expect((await h.get(`/api/v1/chats/${chatId}`, { key: stranger })).status).toBe(404);
    const post = await h.post(`/api/v1/chats/${chatId}/messages`, { content: 'Hi' }, { key: stranger });
    expect(post.status).toBe(404);
    expect(post.body.details).toEqual({ resource: 'chat', id: chatId });
    const foreignTarget = await h.post('/api/v1/chats', { targetId }, { key: stranger });
    expect(foreignTarget.status).toBe(404);
    expect(foreignTarget.body.details.resource).toBe('target');
    expect((await h.get('/api/v1/chats', { key: stranger })).body.data).toEqual([]);

    expect((await h.post('/api/v1/chats', { targetId }, { key: h.keys.readOnly })).status).toBe(403);
    expect((await h.post(`/api/v1/chats/${chatId}/messages`, { content: 'Hi' }, { key: h.keys.readOnly })).status).toBe(403);
    expect((await h.get(`/api/v1/chats/${chatId}`, { key: h.keys.writeOnly })).status).toBe(403);
    expect((await h.get(`/api/v1/chats/${chatId}`)).body.messageCount).toBe(0);
  });
});

describe('chat: hostile input never yields a 5xx', () => {
  it.each([
    ['an empty message', { content: '' }, 'body.content'],
    ['a blank message', { content: ' \n\t ' }, 'body.content'],
    ['a message over 4000 characters', { content: 'x'.repeat(4001) }, 'body.content'],
    ['a number', { content: 42 }, 'body.content'],
    ['an unknown field', { content: 'Hi', role: 'assistant' }, 'body.role'],
    ['no body fields', {}, 'body.content'],
  ])('400 for %s', async (_name, body, path) => {
    const h = harness();
    const chatId = await chat(h, await brand(h, 'northside', { tone: 'warm' }));
    const res = await h.post(`/api/v1/chats/${chatId}/messages`, body);
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect((await h.get(`/api/v1/chats/${chatId}`)).body.messageCount).toBe(0);
  });

  it('400 for bad creation input and non-UUID ids; odd but valid text gets a reply', async () => {
    const h = harness();
    const targetId = await brand(h, 'northside', { tone: 'warm' });
    expect((await h.post('/api/v1/chats', { targetId: 'northside' })).body.details.fields[0].path).toBe('body.targetId');
    expect((await h.post('/api/v1/chats', { targetId, title: 'x'.repeat(121) })).status).toBe(400);
    expect((await h.post('/api/v1/chats', { targetId, extra: true })).status).toBe(400);
    expect((await h.get('/api/v1/chats/1234')).status).toBe(400);
    expect((await h.post('/api/v1/chats/1234/messages', { content: 'Hi' })).status).toBe(400);
    expect((await h.get('/api/v1/chats/0b6a4c1e-5d2f-4e8a-9b7c-1d2e3f4a5b6c')).status).toBe(404);
    const chatId = await chat(h, targetId);
    for (const content of ['???', '\u{1F600}\u{1F600}', '<script>alert(1)</script>', '[fail:drafting]', 'what is '.repeat(400), '\u0000\u0001 nul']) {
      const res = await say(h, chatId, content);
      expect(res.reply.content.length).toBeGreaterThan(0);
      expect(res.reply.content.length).toBeLessThanOrEqual(4000);
    }
  });
});
