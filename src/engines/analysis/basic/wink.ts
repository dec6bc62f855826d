// The wink-nlp instance with its English model, loaded once per process.
import winkNLP from 'wink-nlp';
import type { ItsFunction, WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export interface Wink {
  nlp: WinkMethods;
  lemma: ItsFunction<string>;
  stem: ItsFunction<string>;
}

let instance: Wink | null = null;

export function getWink(): Wink {
  if (instance === null) {
    // No negation/sentiment/cer pipes: negation scope is computed locally, because wink's runs to
    // the end of the sentence, which is the whole segment in unpunctuated recogniser output.
    const nlp = winkNLP(model, ['sbd', 'pos', 'ner']);
    // wink's .d.ts types its.lemma/its.stem as (index, rdd, addons), which is not assignable to
    // its own ItsFunction under strictFunctionTypes.
    instance = {
      nlp,
      lemma: nlp.its.lemma as unknown as ItsFunction<string>,
      stem: nlp.its.stem as unknown as ItsFunction<string>,
    };
  }
  return instance;
}
