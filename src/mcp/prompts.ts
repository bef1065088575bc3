import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** Prompts that walk an assistant through the typical flow with the service's own tools. */
interface PromptSpec {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  text: (args: Record<string, string>) => string;
}

const PROMPTS: PromptSpec[] = [
  {
    name: 'write-blog-post',
    title: 'Write a blog post for a target',
    description: 'Builds a researched blog post for one target (brand) and brings back its Markdown.',
    arguments: [
      { name: 'targetId', description: 'The target to write for (listTargets shows them).', required: true },
      { name: 'topic', description: 'What the post is about.', required: true },
    ],
    text: ({ targetId, topic }) =>
      [
        `Write a blog post for the target ${targetId} about: ${topic}.`,
        '1. Call getTokenBalance and make sure the balance covers the build.',
        `2. Call createBuild with targetId ${targetId}, buildType "single", kind "blog", researchPolicy "required", an objective that states the topic, and an idempotencyKey you keep (a retry with the same key returns the same build and charges nothing).`,
        '3. Call waitForBuild with the buildId, sending a progressToken to follow the stages.',
        '4. When it is completed, read the deliverable (resource content-service://deliverables/{id}.md, or downloadDeliverable with format "md") and show it; if it failed, say at which stage and that the tokens were refunded.',
      ].join('\n'),
  },
  {
    name: 'brief-from-idea',
    title: 'Turn an idea into a build brief',
    description: 'Asks the service to autofill a build brief from a short idea, and shows its cost before building.',
    arguments: [
      { name: 'targetId', description: 'The target to write for.', required: true },
      { name: 'idea', description: 'A sentence or two about what to write.', required: true },
    ],
    text: ({ targetId, idea }) =>
      [
        `Turn this idea into a content build for the target ${targetId}: ${idea}`,
        `1. Call suggestBrief with prompt set to the idea and targetId ${targetId}.`,
        '2. Show the brief, its estimatedCost in tokens and its rationale, and ask whether to build it.',
        '3. If yes, call createBuild with the brief and an idempotencyKey, then waitForBuild.',
      ].join('\n'),
  },
];

export function promptList() {
  return PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args }));
}

export function renderPrompt(name: string, args: Record<string, string>) {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
  if (missing.length) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Missing arguments: ${missing.join(', ')}`);
  return { description: prompt.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(args) } }] };
}
