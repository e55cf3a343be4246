import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { Renderer } from '../../render/renderer.ts';
import { TaskEnv } from '../../tasks/env.ts';
import { instanceFromId } from '../../tasks/registry.ts';

/** `spaceact show --instance ID [--json] [--png FILE]`: an instance's text, JSON or first image. */
export function register(program: Command): void {
  program
    .command('show')
    .description('show an instance: its rules and tools, its JSON, or its first observation as a PNG')
    .requiredOption('--instance <id>', 'instance id, e.g. P6-L3-s100')
    .option('--json', 'print the instance JSON')
    .option('--png <file>', 'write the first observation image to this file')
    .action(async (opts: { instance: string; json?: boolean; png?: string }) => {
      const { family, instance } = instanceFromId(opts.instance);
      if (opts.json) process.stdout.write(JSON.stringify(instance, null, 2) + '\n');
      else {
        process.stdout.write(`${instance.id}: ${instance.title}\n\n${instance.rules}\n\nTools:\n`);
        for (const t of instance.tools) process.stdout.write(`  ${t.name} (${t.kind}): ${t.description}\n`);
      }
      if (opts.png) {
        const env = await TaskEnv.create(family, instance);
        const renderer = new Renderer();
        try {
          // The first observation exactly as an agent gets it; several images get numbered files.
          const images = await env.observe(renderer);
          images.forEach((img, i) => {
            const file = images.length === 1 ? opts.png! : opts.png!.replace(/(\.png)?$/i, `-${i + 1}.png`);
            writeFileSync(file, img.png);
            process.stderr.write(`wrote ${file} (${img.kind}: ${img.caption})\n`);
          });
        } finally {
          env.free();
          await renderer.close();
        }
      }
    });
}
