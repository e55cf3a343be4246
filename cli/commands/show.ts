import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { Renderer } from '../../render/renderer.ts';
import { SpaceActError } from '../../core/errors.ts';
import { TaskEnv } from '../../tasks/env.ts';
import { familyAndInstanceFromId } from '../../tasks/registry.ts';
import { selectInstances } from '../../tasks/suites.ts';
import type { Instance, ToolCall } from '../../tasks/types.ts';

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
 * shows, e.g., the split-screen rollback image after a violation). Text and JSON also for many
 * instances in one process (`--instance A,B,…`, `--family`, `--suite`): JSON then prints a list.
 */
export function register(program: Command): void {
  program
    .command('show')
    .description('show instances: their rules and tools, their JSON, or an observation as the agent gets it (PNG)')
    .option('--instance <ids>', 'instance id(s), comma-separated, e.g. P6-L3-s100')
    .option('--family <ids>', "family id(s), comma-separated: the family's released instances")
    .option('--suite <name>', 'a suite: main, all, or one a family offers')
    .option('--json', 'print the instance JSON (a JSON list when several instances are named)')
    .option('--png <file>', 'write the observation image(s) to this file (numbered when there are several; one instance only)')
    .option('--calls <json>', 'run these calls first, e.g. \'[{"tool":"move","args":{"from":"A","to":"C"}}]\', printing each result (one instance only)')
    .action(async (opts: { instance?: string; family?: string; suite?: string; json?: boolean; png?: string; calls?: string }) => {
      const ids = selectInstances(opts);
      const single = opts.instance !== undefined && ids.length === 1;
      if (!single && (opts.png !== undefined || opts.calls !== undefined)) throw new SpaceActError('invalid-argument', '--png and --calls take one instance (--instance ID)');
      if (!single) {
        const instances = ids.map((id) => familyAndInstanceFromId(id).instance);
        if (opts.json) process.stdout.write(JSON.stringify(instances, null, 2) + '\n');
        else for (const instance of instances) writeText(instance);
        return;
      }
      const { family, instance } = familyAndInstanceFromId(ids[0]);
      const calls = opts.calls !== undefined ? parseCalls(opts.calls) : [];
      if (opts.json) process.stdout.write(JSON.stringify(instance, null, 2) + '\n');
      else writeText(instance);
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

/** An instance's title, rules and tools as text. */
function writeText(instance: Instance): void {
  process.stdout.write(`${instance.id}: ${instance.title}\n\n${instance.rules}\n\nTools:\n`);
  for (const t of instance.tools) process.stdout.write(`  ${t.name} (${t.kind}): ${t.description}\n`);
}
