// What the reviewer, the pattern detector and the command line use of this library.
export { addressesIn, addressOf, addressOfUrl, type EndpointAddress, joinUrl } from './endpoint-address.js';
export {
  type AppliesToMatcher,
  type ConfigPattern,
  KnowledgeFileError,
  type KnowledgeFormat,
  knowledgeFor,
  knowledgeFormatOf,
  type KnownIssue,
  parseProjectKnowledge,
  type Practice,
  type ProjectKnowledge,
  type ServiceEndpoint,
  showsSymptom,
} from './knowledge.js';
export { containsPhrase, contentWords, MAX_PHRASE_GAP, normaliseText, sameWord, sharesContentWord, stem, type StemOptions, wordsOf } from './wording.js';
