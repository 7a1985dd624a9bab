/**
 * The benchmark's shop process: server/main.ts itself, run from this file so that its command
 * line names the benchmark. Stopping other shops by name (`pkill -f server/main.ts`) then leaves
 * the one under measurement alone.
 */
import '../../server/main.ts';
