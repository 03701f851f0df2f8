import { containsPhrase, stem, wordsOf } from './wording.js';

describe('wording', () => {
  it('strips plural and verb endings, past tense included, so that known issues match in any form', () => {
    expect(wordsOf('Installed the Playwright browsers, installing dependencies')).toEqual(['install', 'the', 'playwright', 'browser', 'install', 'dependency']);
    expect(containsPhrase(wordsOf('npm installed the missing dependencies'), wordsOf('install dependencies'))).toBe(true);
    expect(containsPhrase(wordsOf('Failed: connection refused'), wordsOf('fail connection'))).toBe(true);
  });

  it('keeps -ed when asked: words looked for inside paths stay whole', () => {
    expect(wordsOf('Fix the shared loader', { pastTense: false })).toEqual(['fix', 'the', 'shared', 'loader']);
    expect(stem('shared')).toBe('shar');
    expect(stem('shared', { pastTense: false })).toBe('shared');
    expect(stem('class')).toBe('class');
    expect(stem('bed')).toBe('bed');
  });
});
