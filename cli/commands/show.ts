import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { Renderer } from '../../render/renderer.ts';
import { SpaceActError } from '../../core/errors.ts';
import { TaskEnv } from '../../tasks/env.ts';
import { instanceFromId } from '../../tasks/registry.ts';
import type { ToolCall } from '../../tasks/types.ts';

/** Parses `--calls`: a JSON list of `{tool, args}` (checked call by call when they run). */
function parseCalls(text: string): ToolCall[] {
  let calls: unknown;
  try {
    calls = JSON.parse(text);
  } catch (err) {
    throw new SpaceActError('invalid-argument', `--calls is not JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(calls)) throw new SpaceActError('invalid-argument', '--calls must be a JSON list of {"tool": ..., "args": {...}}');
  return calls as ToolCall[];
}

/**
 * `spaceact show --instance ID [--json] [--png FILE] [--calls JSON]`: an instance's text, its
 * JSON, or its observation as a PNG — the first one, or the one after the given calls (which
 * shows, e.g., the split-screen rollback image after a violation).
 */
export function register(program: Command): void {
  program
    .command('show')
    .description('show an instance: its rules and tools, its JSON, or an observation as the agent gets it (PNG)')
    .requiredOption('--instance <id>', 'instance id, e.g. P6-L3-s100')
    .option('--json', 'print the instance JSON')
    .option('--png <file>', 'write the observation image(s) to this file (numbered when there are several)')
    .option('--calls <json>', 'run these calls first, e.g. \'[{"tool":"move","args":{"from":"A","to":"C"}}]\', printing each result')
    .action(async (opts: { instance: string; json?: boolean; png?: string; calls?: string }) => {
      const { family, instance } = instanceFromId(opts.instance);
      const calls = opts.calls !== undefined ? parseCalls(opts.calls) : [];
      if (opts.json) process.stdout.write(JSON.stringify(instance, null, 2) + '\n');
      else {
        process.stdout.write(`${instance.id}: ${instance.title}\n\n${instance.rules}\n\nTools:\n`);
        for (const t of instance.tools) process.stdout.write(`  ${t.name} (${t.kind}): ${t.description}\n`);
      }
      if (!opts.png && calls.length === 0) return;
      const env = await TaskEnv.create(family, instance);
      const renderer = opts.png ? new Renderer() : null;
      try {
        for (const call of calls) {
          const r = env.execute(call);
          process.stderr.write(`${JSON.stringify(call)} → ${r.status}: ${r.message}\n`);
        }
        if (renderer) {
          // The observation exactly as an agent gets it next; several images get numbered files.
          const images = await env.observe(renderer);
          images.forEach((img, i) => {
            const file = images.length === 1 ? opts.png! : opts.png!.replace(/(\.png)?$/i, `-${i + 1}.png`);
            writeFileSync(file, img.png);
            process.stderr.write(`wrote ${file} (${img.kind}: ${img.caption})\n`);
          });
        }
      } finally {
        env.free();
        await renderer?.close();
      }
    });
}
