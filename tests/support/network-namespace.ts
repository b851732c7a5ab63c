import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * SIP suites run inside a network namespace of their own (`unshare --net`, loopback up), so their SIP and RTP
 * ports never meet anyone else's and peers live on 127.0.0.2 and up. The suite file calls
 * `await enterNetworkNamespace(import.meta.url)` first: outside the namespace it re-runs itself inside one and
 * exits with the child's status (its output is the suite's output); inside it returns. Without root or unshare the
 * suite is skipped with a message (tests/run.ts counts it as skipped).
 */
const MARKER = 'VOICE_AGENT_TEST_NETNS';

export async function enterNetworkNamespace(suiteUrl: string): Promise<void> {
  if (process.env[MARKER] === '1') {
    const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
    if (up.status !== 0) throw new Error(`ip link set lo up failed: ${up.stderr}`);
    return;
  }
  const reason = namespaceUnavailable();
  if (reason) {
    console.log(`skipped: ${reason}`);
    process.exit(0);
  }
  const child = spawn('unshare', ['--net', '--kill-child', '--', process.execPath, '--import', 'tsx', fileURLToPath(suiteUrl)], {
    env: { ...process.env, [MARKER]: '1' },
    stdio: 'inherit',
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
  process.exit(code);
}

function namespaceUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'the SIP suites need root to create a network namespace (unshare --net); run them as root';
  const probe = spawnSync('unshare', ['--net', 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return `unshare --net is not available here: ${probe.error?.message ?? probe.stderr.trim()}`;
  return null;
}

/** A peer process (sipp, baresip, kamailio) that dies with the suite; stopped by its PID. */
export interface Peer {
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function startPeer(command: string, args: string[], options: { cwd?: string } = {}): Peer {
  // setpriv --pdeathsig: if the suite itself is killed, the kernel ends the peer too.
  // Its own process group, so that stop() ends the workers a program forks (kamailio's) with it.
  const child = spawn('setpriv', ['--pdeathsig', 'SIGKILL', '--', command, ...args], { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is gone already.
    }
  };
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    process: child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        signalGroup('SIGTERM');
        const timer = setTimeout(() => signalGroup('SIGKILL'), 2000);
        await exited;
        clearTimeout(timer);
      }
      // Forked workers may outlive the main process and keep its pipes, and with them this process, open.
      signalGroup('SIGKILL');
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
  };
}
