import { addressOfUrl } from '@warden/project-knowledge';
import { targetsOf } from './requests.js';

describe('targetsOf', () => {
  it('reads each URL\'s address from its origin, once per origin, as from the whole URL', () => {
    const urls = [
      'http://localhost:8080/health?i=1',
      'http://localhost:8080/health?i=2',
      'HTTP://LocalHost:8080/x',
      'http://user:secret@host:81/a',
      'http://host\\evil/x',
      'https://h?x/y',
      'https://h#f/y',
      'http://[::1]:9/z',
      'https://Bücher.example/x',
      'http://a%41b/x',
      'http://ho st/x',
      'file:///etc/passwd',
    ];
    const expected = urls.filter((url) => addressOfUrl(url)).map((url) => ({ url, address: addressOfUrl(url) }));
    expect(targetsOf(urls, [])).toEqual(expected);
    expect(expected.map((t) => t.address!.hostPort)).toEqual([
      'localhost:8080',
      'localhost:8080',
      'localhost:8080',
      'host:81',
      'host:80',
      'h:443',
      'h:443',
      'localhost:9',
      'xn--bcher-kva.example:443',
      'aab:80',
    ]);
  });
});
