// Ready analysis scenarios a workspace adds in one step. "Call QA" asks what a contact centre's
// quality lead checks on every call: a greeting by the agent in the first 15 seconds, the
// recording notice, a refund offered (phrase rules: answered from what was said, deterministic),
// and why the customer called (text). Its questions name the speakers "agent" and "customer": when
// the workspace's default transcription scenario labels no channel, adding the template labels
// channel 0 the agent and channel 1 the customer (two-channel call recorders put them so).
import type { Context } from '../../context.ts';
import { invalid } from '../../errors.ts';
import { createAnalysisScenario, listAnalysisScenarios, type AnalysisScenario, type AnalysisScenarioInput } from './analysis-scenarios.ts';

export interface AnalysisTemplate {
  id: string;
  name: string;
  description: string;
  scenario: AnalysisScenarioInput & { name: string };
}

export const analysisTemplates: readonly AnalysisTemplate[] = [
  {
    id: 'call_qa',
    name: 'Call QA',
    description: 'Greeting by the agent in the first 15 seconds, the recording notice, a refund offered, and the reason for the call.',
    scenario: {
      name: 'Call QA',
      instructions: 'Review a customer call as a quality lead would.',
      summary: true,
      questions: [
        {
          id: 'greeting',
          text: 'Did the agent greet the customer in the first 15 seconds?',
          type: 'boolean',
          speaker: 'agent',
          within_seconds: 15,
          phrases: ['thank you for calling', 'thanks for calling', 'welcome to', 'good morning', 'good afternoon', 'good evening', 'hello'],
        },
        {
          id: 'recording_notice',
          text: 'Did the agent say that the call is recorded?',
          type: 'boolean',
          speaker: 'agent',
          phrases: ['this call is recorded', 'this call may be recorded', 'this call is being recorded', 'calls are recorded', 'calls may be recorded', 'recorded for quality', 'recorded for training', 'monitored or recorded'],
        },
        {
          id: 'refund_offered',
          text: 'Did the agent offer a refund?',
          type: 'boolean',
          speaker: 'agent',
          phrases: ['refund', 'money back', 'reimburse you', 'credit your account'],
        },
        { id: 'call_reason', text: 'What did the customer call about?', type: 'text', speaker: 'customer' },
      ],
    },
  },
];

export const CALL_SPEAKER_LABELS = { '0': 'agent', '1': 'customer' };

export async function createFromTemplate(ctx: Context, workspaceId: string, templateId: string, name?: string): Promise<{ scenario: AnalysisScenario; labelled: string | null }> {
  const template = analysisTemplates.find((t) => t.id === templateId);
  if (!template) throw invalid('template', `unknown template "${templateId}"; one of ${analysisTemplates.map((t) => t.id).join(', ')}`);
  // Added twice, the template's scenarios are told apart by name ("Call QA 2"); a name given is kept as it is.
  const taken = new Set((await listAnalysisScenarios(ctx, workspaceId)).map((s) => s.name));
  let unique = template.scenario.name;
  for (let n = 2; taken.has(unique); n++) unique = `${template.scenario.name} ${n}`;
  const scenario = await createAnalysisScenario(ctx, workspaceId, { ...template.scenario, name: name ?? unique });
  return { scenario, labelled: await ctx.pipeline.speakersNamed(workspaceId, CALL_SPEAKER_LABELS) };
}
