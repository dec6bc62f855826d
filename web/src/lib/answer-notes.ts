// What an answer says about the speaker its question is about and the transcript did not name:
// on the call's latest transcript, the way out is to transcribe again with the speakers named; on
// an earlier one (the call was transcribed again since), it is to analyse the newer transcript.
export function speakerNotFoundNote(speaker: string, earlierTranscript: boolean): string {
  return earlierTranscript
    ? `The transcript these answers read named no “${speaker}”, so everyone’s words were read. The call has a newer transcript: analyse again to answer from it.`
    : `This transcript names no “${speaker}”, so everyone’s words were read. Transcribe the call again with its scenario’s speaker names, then analyse again.`;
}
