import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import {
  type AddressKind,
  allowsHttp,
  checkResolvedAddress,
  checkWebhookUrl,
  classifyAddress,
  classifyHost,
  isAddressAllowed,
  isIpAddress,
  parseUrlPolicy,
  UnsafeWebhookUrlError,
  URL_POLICIES,
  type UrlPolicy,
} from '#domain/webhook-url';
import { catchError } from './catch-error';

describe('classifyAddress', () => {
  it.each<[string, AddressKind]>([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['0.1.2.3', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['239.255.255.250', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.1', 'reserved'],
    ['203.0.113.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:81c::200e', 'public'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'reserved'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fd00:ec2::254', 'link-local'],
    ['fec0::1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:808:808::1', 'public'],
    ['::127.0.0.1', 'reserved'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each([
    '',
    'example.com',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1::2::3',
    ':::',
    '12345::',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7::8',
    'g::1',
    '::1.2.3',
    '[::1',
  ])('refuses %j as no address', (text) => {
    expect(isIpAddress(text)).toBe(false);
    expect(() => classifyAddress(text)).toThrow(TypeError);
  });

  it('reads full and compressed forms alike', () => {
    expect(isIpAddress('1:2:3:4:5:6:7:8')).toBe(true);
    expect(isIpAddress('1:2:3:4:5:6:7::')).toBe(true);
    expect(isIpAddress('::2:3:4:5:6:7:8')).toBe(true);
    expect(classifyAddress('FE80:0000:0000:0000:0000:0000:0000:0001')).toBe('link-local');
  });
});

describe('classifyHost', () => {
  it('knows localhost names and IP literals, and leaves other names to DNS', () => {
    expect(classifyHost('localhost')).toBe('loopback');
    expect(classifyHost('api.LOCALHOST.')).toBe('loopback');
    expect(classifyHost('[::1]')).toBe('loopback');
    expect(classifyHost('hooks.example.com')).toBeUndefined();
    expect(classifyHost('localhost.example.com')).toBeUndefined();
  });
});

describe('isAddressAllowed', () => {
  const table: Record<UrlPolicy, AddressKind[]> = {
    'public-https': ['public'],
    'allow-http': ['public'],
    'allow-private': ['public', 'private'],
    'allow-private-http': ['public', 'private'],
    local: ['public', 'private', 'loopback'],
  };
  const kinds: AddressKind[] = ['public', 'private', 'loopback', 'link-local', 'reserved'];

  it.each(URL_POLICIES)('%s allows exactly its kinds', (policy) => {
    expect(kinds.filter((kind) => isAddressAllowed(kind, policy))).toEqual(table[policy]);
  });

  it('allows http only under the http policies and local', () => {
    expect(URL_POLICIES.filter(allowsHttp)).toEqual(['allow-http', 'allow-private-http', 'local']);
  });
});

describe('parseUrlPolicy', () => {
  it('reads each policy and refuses others', () => {
    for (const policy of URL_POLICIES) expect(parseUrlPolicy(policy)).toBe(policy);
    expect(() => parseUrlPolicy('PUBLIC-HTTPS')).toThrow(/allowed: public-https, allow-private/);
    expect(() => parseUrlPolicy('')).toThrow(RangeError);
  });
});

describe('checkWebhookUrl', () => {
  /** The reason of the ValidationError for webhook_url. */
  const reason = (url: string, policy: UrlPolicy = 'public-https'): string => {
    const error = catchError(() => checkWebhookUrl(url, policy));
    expect(error).toBeInstanceOf(ValidationError);
    const [param] = (error as ValidationError).params;
    expect(param?.name).toBe('webhook_url');
    return param?.reason ?? '';
  };

  it('accepts public https URLs and returns the parsed URL', () => {
    const url = checkWebhookUrl('https://hooks.example.com:8443/herald?x=1', 'public-https');
    expect(url.href).toBe('https://hooks.example.com:8443/herald?x=1');
    expect(checkWebhookUrl('https://8.8.8.8/', 'public-https').hostname).toBe('8.8.8.8');
    expect(checkWebhookUrl('https://[2606:4700::1111]/', 'public-https').hostname).toBe('[2606:4700::1111]');
  });

  it.each(['not a url', '/relative/path', 'hooks.example.com/x', ''])('refuses %j as not absolute', (url) => {
    expect(reason(url)).toBe('must be an absolute URL');
  });

  it('refuses other schemes and http unless allowed', () => {
    expect(reason('ftp://example.com/')).toBe('must use https: (URL policy public-https)');
    expect(reason('http://example.com/')).toBe('must use https: (URL policy public-https)');
    expect(reason('http://example.com/', 'allow-private')).toBe('must use https: (URL policy allow-private)');
    expect(reason('file:///etc/passwd', 'local')).toBe('must use https: or http: (URL policy local)');
    expect(checkWebhookUrl('http://example.com/', 'allow-http').protocol).toBe('http:');
  });

  it('refuses credentials', () => {
    expect(reason('https://user:secret@example.com/')).toBe('must not contain credentials (user:password@)');
    expect(reason('https://user@example.com/')).toBe('must not contain credentials (user:password@)');
  });

  it('refuses over-long URLs', () => {
    expect(reason(`https://example.com/${'a'.repeat(2048)}`)).toBe('must have at most 2048 characters');
  });

  it.each([
    [
      'https://127.0.0.1/',
      'host 127.0.0.1 is a loopback address, which URL policy public-https does not allow',
    ],
    ['https://0x7f.1/', 'host 127.0.0.1 is a loopback address, which URL policy public-https does not allow'],
    [
      'https://2130706433/',
      'host 127.0.0.1 is a loopback address, which URL policy public-https does not allow',
    ],
    [
      'https://localhost:3000/',
      'host localhost is a loopback address, which URL policy public-https does not allow',
    ],
    ['https://10.1.2.3/', 'host 10.1.2.3 is a private address, which URL policy public-https does not allow'],
    [
      'https://169.254.169.254/',
      'host 169.254.169.254 is a link-local address, which URL policy public-https does not allow',
    ],
    [
      'https://[::ffff:127.0.0.1]/',
      'host ::ffff:7f00:1 is a loopback address, which URL policy public-https does not allow',
    ],
    ['https://0.0.0.0/', 'host 0.0.0.0 is a reserved address, which URL policy public-https does not allow'],
  ])('refuses %s', (url, expected) => {
    expect(reason(url)).toBe(expected);
  });

  it('lets the private and local policies through', () => {
    expect(() => checkWebhookUrl('https://10.1.2.3/', 'allow-private')).not.toThrow();
    expect(() => checkWebhookUrl('http://192.168.0.10/', 'allow-private-http')).not.toThrow();
    expect(reason('https://127.0.0.1/', 'allow-private')).toContain('loopback');
    expect(() => checkWebhookUrl('http://localhost:4010/hook', 'local')).not.toThrow();
    expect(() => checkWebhookUrl('http://[::1]:4010/hook', 'local')).not.toThrow();
    expect(reason('http://0.0.0.0:4010/', 'local')).toContain('reserved');
  });

  it.each([
    ['169.254.169.254', 'https://169.254.169.254/latest/meta-data/'],
    ['fd00:ec2::254', 'https://[fd00:ec2::254]/latest/meta-data/'],
    ['fe80::1', 'https://[fe80::1]/'],
    ['febf::1', 'https://[febf::1]/'],
    ['::ffff:a9fe:a9fe', 'https://[::ffff:169.254.169.254]/'],
  ])('refuses the link-local (metadata) host %s under every policy, local included', (host, url) => {
    for (const policy of URL_POLICIES) {
      expect(reason(url, policy)).toBe(
        `host ${host} is a link-local address, which URL policy ${policy} does not allow`,
      );
    }
  });
});

describe('checkResolvedAddress', () => {
  it('throws UnsafeWebhookUrlError for an address the policy refuses', () => {
    const error = catchError(() =>
      checkResolvedAddress('hooks.example.com', '169.254.169.254', 'allow-private'),
    );
    expect(error).toBeInstanceOf(UnsafeWebhookUrlError);
    expect(error).not.toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      host: 'hooks.example.com',
      address: '169.254.169.254',
      kind: 'link-local',
      policy: 'allow-private',
    });
    expect((error as Error).message).toBe(
      'Refused: hooks.example.com resolves to 169.254.169.254, a link-local address, which URL policy allow-private does not allow',
    );
  });

  it('refuses a name resolving to a metadata address even under the local policy, loopback stays allowed', () => {
    for (const address of ['169.254.169.254', 'fd00:ec2::254', 'fe80::1']) {
      expect(catchError(() => checkResolvedAddress('hooks.test', address, 'local'))).toBeInstanceOf(
        UnsafeWebhookUrlError,
      );
    }
    expect(() => checkResolvedAddress('localhost', '127.0.0.1', 'local')).not.toThrow();
    expect(() => checkResolvedAddress('localhost', '::1', 'local')).not.toThrow();
  });

  it('passes allowed addresses', () => {
    expect(() => checkResolvedAddress('hooks.example.com', '93.184.216.34', 'public-https')).not.toThrow();
    expect(() => checkResolvedAddress('db.internal', '10.0.0.5', 'allow-private')).not.toThrow();
  });
});
