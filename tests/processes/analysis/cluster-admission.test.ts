// A cluster leader's admission of transcription jobs to the lanes' work queues (cluster-admission.ts): the
// cluster's slots, and the fair queue choosing which job takes a slot. The worker is tested with an admission port
// that records what it is given and finishes each job when the test says (a fake in the unit test of the code that
// uses it); the real queue and nodes are tests/http/cluster.test.ts's subject.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobSubmittedData } from '../../../domain/transcription-job.ts';
import { clusterAdmissionSlots } from '../../../processes/analysis/cluster-admission.ts';
import { FairJobQueue, type QueuedJob } from '../../../processes/analysis/fair-job-queue.ts';
import { createTranscriptionWorker, type JobLane } from '../../../processes/analysis/transcription-worker.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';

test('the cluster\'s slots: every worker node\'s consumers of each lane', () => {
  assert.equal(clusterAdmissionSlots({ audio: 2, transcript: 2 }, 1), { audio: 2, transcript: 2 });
  assert.equal(clusterAdmissionSlots({ audio: 4, transcript: 2 }, 3), { audio: 12, transcript: 6 });
  assert.throws(() => clusterAdmissionSlots({ audio: 2, transcript: 2 }, 0), /positive integer/);
  assert.throws(() => clusterAdmissionSlots({ audio: 2, transcript: 2 }, 1.5), /positive integer/);
});

test('given A flooding two nodes\' transcript slots, then B\'s one job is admitted into the slot A may not take, ahead of A\'s 57 others', () => {
  const queue = new FairJobQueue<JobLane>(clusterAdmissionSlots({ audio: 2, transcript: 2 }, 2));
  for (let index = 1; index <= 60; index++) queue.add({ jobId: `a${index}`, workspaceId: 'A', lane: 'transcript' });
  const admitted = (): string[] => {
    const ids: string[] = [];
    for (let job = queue.next(); job !== undefined; job = queue.next()) ids.push(job.jobId);
    return ids;
  };
  assert.equal(admitted(), ['a1', 'a2', 'a3'], 'A holds all four slots but one');
  queue.add({ jobId: 'b1', workspaceId: 'B', lane: 'transcript' });
  assert.equal(admitted(), ['b1']);
  queue.finish('a1');
  assert.equal(admitted(), ['a4']);
});

const TRANSCRIPT = [
  { speaker: 'agent', text: 'Good morning, I am calling about your loan renewal.', start_time: 0, end_time: 3 },
  { speaker: 'customer', text: 'Yes, I would like to renew it, thank you.', start_time: 3.5, end_time: 6 },
];

function submission(jobId: string, workspaceId: string): TranscriptionJobSubmittedData {
  return {
    job_id: jobId,
    workspace_id: workspaceId,
    audio_url: null,
    transcript: TRANSCRIPT,
    language: 'en-IN',
    speakers: 2,
    features: ['transcription'],
    qa_scorecard_id: null,
    qa_scorecard: null,
    metadata: null,
    call_id: null,
    disposition: null,
    submitted_at: '2026-03-01T10:00:00.000Z',
  };
}

async function submit(runtime: Runtime, data: TranscriptionJobSubmittedData): Promise<void> {
  await runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(data.job_id), { type: 'SubmitTranscriptionJob', data }, { workspaceId: data.workspace_id, actor: 'test', now: runtime.clock.now() });
}

/** An admission port that records each admitted job and holds it until `finish` (as a node would run it). */
function recordingAdmission() {
  const admitted: string[] = [];
  const held = new Map<string, () => void>();
  let most = 0;
  return {
    admitted,
    held,
    most: () => most,
    admit(job: QueuedJob<JobLane>, signal: AbortSignal): Promise<void> {
      admitted.push(job.jobId);
      most = Math.max(most, held.size + 1);
      return new Promise<void>((resolve) => {
        const done = () => {
          held.delete(job.jobId);
          resolve();
        };
        held.set(job.jobId, done);
        signal.addEventListener('abort', done, { once: true });
      });
    },
    finish(jobId: string) {
      held.get(jobId)?.();
    },
  };
}

test('the leader\'s worker admits in fair order, at most the cluster\'s slots at once, each held until the job is finished; a new leader admits the unfinished jobs again', async () => {
  const slots = { audio: 2, transcript: 4 };
  const first = recordingAdmission();
  const made = testRuntime({ processes: (runtime) => [createTranscriptionWorker(runtime, { admission: { slots, admit: (job, signal) => first.admit(job, signal) } })] });
  await made.runtime.start();
  try {
    for (let index = 1; index <= 20; index++) await submit(made.runtime, submission(`job_a${index}`, 'ws_a'));
    await eventually(() => first.admitted.length === 3, 5_000, 'A\'s first three jobs admitted');
    await submit(made.runtime, submission('job_b1', 'ws_b'));
    await eventually(() => first.admitted.length === 4, 5_000, 'B\'s job admitted');
    assert.equal(first.admitted, ['job_a1', 'job_a2', 'job_a3', 'job_b1'], 'B is admitted into the slot A may not take');
    // A slot frees only when its job is finished on whichever node ran it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.is(first.admitted.length, 4);
    first.finish('job_b1');
    first.finish('job_a1');
    await eventually(() => first.admitted.length === 5, 5_000, 'the next job of A');
    // B's slot freed, but A may still hold only three: one slot stays free for another workspace.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(first.admitted.slice(4), ['job_a4']);
    assert.is(first.most(), 4, 'never more than the cluster\'s transcript slots at once');
  } finally {
    await made.runtime.close();
  }

  // The leader died: a new one (here the same data directory, as a node whose read models hold the same jobs)
  // queues every unfinished job again, A's and the one B left unfinished; the admitted items that are still under
  // way are found again as the same ids (the work queue changes nothing for them).
  const second = recordingAdmission();
  const next = testRuntime({ dataDir: made.dataDir, processes: (runtime) => [createTranscriptionWorker(runtime, { admission: { slots, admit: (job, signal) => second.admit(job, signal) } })] });
  await next.runtime.start();
  try {
    await submit(next.runtime, submission('job_b2', 'ws_b'));
    await eventually(() => second.admitted.length === 4, 10_000, 'the new leader\'s admissions');
    const ofA = second.admitted.filter((id) => id.startsWith('job_a')).length;
    assert.ok(ofA >= 1 && ofA <= 3, `A holds at most three of the four slots: ${second.admitted.join(', ')}`);
    // B's unfinished job and its new one are both admitted as B's slots free.
    await eventually(
      () => {
        for (const id of second.held.keys()) if (id.startsWith('job_b')) second.finish(id);
        return second.admitted.includes('job_b1') && second.admitted.includes('job_b2');
      },
      10_000,
      'B\'s jobs admitted by the new leader',
    );
    assert.ok(second.most() <= 4);
  } finally {
    await next.runtime.close();
    next.remove();
  }
});

test.run();
