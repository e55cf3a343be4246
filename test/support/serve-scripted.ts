/**
 * Starts the scripted OpenAI-compatible server by hand, to try the model agent end to end:
 *
 *   npx tsx test/support/serve-scripted.ts --script reference --family P6 [--port 8765] [--key KEY]
 *   OPENAI_API_KEY=KEY npx spaceact run --agent openai --base-url http://127.0.0.1:8765/v1 --model any --family P6 --out /tmp/run
 *
 * Scripts: `reference` (plays each instance's reference solution, keeping its place in its
 * note; instances from --instance/--family/--suite, default the released set) and `random`
 * (random valid calls seeded by each request). Stops on Ctrl-C / SIGTERM.
 */
import { Command } from 'commander';
import { selectInstances } from '../../tasks/suites.ts';
import { randomScript, referenceScript, ScriptedOpenAIServer, type Script } from './openai-server.ts';

const program = new Command('serve-scripted')
  .option('--script <name>', 'reference | random', 'reference')
  .option('--port <n>', 'port on 127.0.0.1 (0: any free one)', '0')
  .option('--key <key>', 'demand this bearer key')
  .option('--seed <n>', 'random script seed', '0')
  .option('--instance <ids>')
  .option('--family <ids>')
  .option('--suite <name>')
  .parse(process.argv);
const o = program.opts<Record<string, string | undefined>>();

let script: Script;
if (o.script === 'random') script = randomScript(Number(o.seed));
else if (o.script === 'reference') {
  const pick = o.instance || o.family || o.suite ? o : { suite: 'all' };
  script = referenceScript(selectInstances(pick));
} else throw new Error(`unknown script ${o.script}`);

const server = await ScriptedOpenAIServer.start(script, { port: Number(o.port), ...(o.key ? { apiKey: o.key } : {}) });
process.stdout.write(`scripted OpenAI-compatible server (${o.script}) listening on ${server.url}\n`);
const stop = async (): Promise<void> => {
  process.stdout.write(`served ${server.requests.length} request(s); image problems: ${server.imageProblems.length}\n`);
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
