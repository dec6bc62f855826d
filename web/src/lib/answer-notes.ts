// What an answer says about the speaker its question is about and the transcript did not name:
// on the call's latest transcript, the way out is to transcribe again with the speakers named; on
// an earlier one (the call was transcribed again since), it is to analyse the newer transcript. A
// call recorded on one channel has everyone on it: naming channels cannot tell its speakers apart.
export function speakerNotFoundNote(speaker: string, earlierTranscript: boolean, oneChannel = false): string {
  if (oneChannel) {
    return `This call is one channel with everyone on it, so its “${speaker}” cannot be told apart and everyone’s words were read. Calls recorded with each side on its own channel (stereo) are read speaker by speaker; a recording of one side alone can be named by a metadata field (the transcription scenario’s “Metadata field naming the speakers of a call”).`;
  }
  return earlierTranscript
    ? `The transcript these answers read named no “${speaker}”, so everyone’s words were read. The call has a newer transcript: analyse again to answer from it.`
    : `This transcript names no “${speaker}”, so everyone’s words were read. Transcribe the call again with its scenario’s speaker names, then analyse again.`;
}

/**
 * What a phrase rule's "No" looked for, since no passage shows it: "Looked for “thank you for
 * calling” and “thanks for calling”: none was said." Up to five phrases, then how many more.
 */
export function phrasesNotSaidNote(phrases: readonly string[]): string {
  const shown = phrases.slice(0, 5).map((phrase) => `“${phrase}”`);
  const more = phrases.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : (shown[0] ?? '');
  return phrases.length === 1 ? `Looked for ${list}: not said.` : `Looked for ${list}: none was said.`;
}

/** An answer as a review line says it: Yes, No, nothing, or the text in quotes. */
export const shownAnswer = (answer: boolean | string) => (answer === true ? 'Yes' : answer === false ? 'No' : answer === '' ? 'nothing' : `“${answer}”`);

/**
 * Who reviewed an answer and how it stands: on this answer, agreed or corrected; taken over from an
 * earlier analysis of the call (its review was given before this answer existed), the reviewer's
 * answer then, and whether the engine now says the same.
 */
export function reviewLine(who: string, review: { answer: boolean | string; agrees: boolean; carried_from?: string | null }, engine: boolean | string): string {
  if (review.carried_from) {
    return `${who} answered ${shownAnswer(review.answer)} on an earlier analysis of this call; ${review.agrees ? 'the engine now says the same' : `the engine now says ${shownAnswer(engine)}`}`;
  }
  return review.agrees ? `${who} agreed with this answer` : `${who} corrected it; the engine said ${shownAnswer(engine)}`;
}
