// The shapes of the reports, written once: the routes' response schemas, and (as Static types)
// what reports.ts returns.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas/common.ts';

const Key = Type.Record(Type.String(), Nullable(Type.String()));
export const AnalysisReportSchema = Type.Object({
  analysis_scenario_id: Type.String(),
  group_by: Type.Array(Type.String()),
  questions: Type.Array(Type.Object({ question_id: Type.String(), question: Type.String() }), {
    description: 'The boolean questions counted, in the scenario\'s order: the columns of every group (and of the CSV, even with no group)',
  }),
  groups: Type.Array(
    Type.Object({
      key: Key,
      results: Type.Integer({ description: 'Results counted: each recording\'s latest completed result for the scenario (a re-run or a retry replaces the earlier one)' }),
      calls: Type.Integer({ description: 'Calls (recordings) in the group: the same number as results' }),
      questions: Type.Array(
        Type.Object({
          question_id: Type.String(),
          question: Type.String(),
          true: Type.Integer(),
          false: Type.Integer(),
          uncertain: Type.Integer({ description: 'Of the true and false answers, how many are uncertain (confidence below 0.6) and not reviewed: worth a listen before they are counted on' }),
          reviewed: Type.Integer({ description: 'Of the true and false answers, how many a person reviewed (counted as the reviewer answered)' }),
          overturned: Type.Integer({ description: 'Of the reviewed answers, how many the reviewer changed: overturned / reviewed is how often the engine was wrong on the answers checked' }),
          rate: Nullable(Type.Number()),
        }),
      ),
      sentiment: Type.Optional(
        Type.Array(
          Type.Object({
            speaker: Type.String({ description: 'As the transcripts name the speaker (agent, channel_1); one_channel: everyone on a call transcribed as one channel (mono, or its channels mixed) whose speaker is unnamed' }),
            transcripts: Type.Integer({ description: 'Analysed transcripts in which this speaker is heard and scored' }),
            mean: Type.Number({ minimum: -1, maximum: 1, description: "The speaker's mean sentiment per call (-1 … 1), averaged over those transcripts" }),
          }),
          { description: 'With sentiment=true: per speaker, the sentiment of the transcripts the counted results analysed' },
        ),
      ),
    }),
  ),
});
export const RecordingsReportSchema = Type.Object({
  group_by: Type.Array(Type.String()),
  groups: Type.Array(Type.Object({ key: Key, recordings: Type.Integer(), by_status: Type.Record(Type.String(), Type.Integer()), total_duration_seconds: Type.Number() })),
});

export const TalkReportSchema = Type.Object({
  group_by: Type.Array(Type.String()),
  groups: Type.Array(
    Type.Object({
      key: Key,
      transcripts: Type.Integer({ description: 'Recordings in the group with a transcript (their latest one counts)' }),
      silence_seconds_avg: Type.Number(),
      overlap_seconds_avg: Type.Number(),
      interruptions_avg: Type.Number(),
      speakers: Type.Array(
        Type.Object({
          speaker: Type.String({ description: 'As the transcripts name the speaker (agent, channel_1); one_channel: everyone on a call transcribed as one channel (mono, or its channels mixed) whose speaker is unnamed' }),
          transcripts: Type.Integer({ description: 'Transcripts in which this speaker is heard' }),
          talk_share: Type.Number({ description: "The speaker's share of all the group's talk (talk seconds over the group's talk seconds): a group's shares add up to 1" }),
          talk_ratio_avg: Type.Number({ description: "The speaker's share of the talk of each call, averaged over the calls the speaker is in (these need not add up to 1)" }),
          talk_seconds_avg: Type.Number(),
          words_per_minute_avg: Type.Number(),
          longest_turn_seconds_avg: Type.Number(),
          interruptions_avg: Type.Number(),
          sentiment_avg: Type.Union([Type.Number({ minimum: -1, maximum: 1 }), Type.Null()], { description: "The speaker's mean sentiment per call (-1 … 1), averaged over the calls scored; null when none is" }),
        }),
      ),
    }),
  ),
});

export type AnalysisReport = Static<typeof AnalysisReportSchema>;
export type RecordingsReport = Static<typeof RecordingsReportSchema>;
export type TalkReport = Static<typeof TalkReportSchema>;
