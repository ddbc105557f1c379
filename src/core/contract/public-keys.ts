import { DomainSeparator } from '../constants.js';
import { FR_MODULUS } from '../fr.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import { FieldWriter } from '../serialize/field-writer.js';
import { readObject, readString } from '../serialize/json-reader.js';
import type { GrumpkinPoint } from './grumpkin.js';

export interface PublicKeysJson {
  masterNullifierPublicKey: string;
  masterIncomingViewingPublicKey: string;
  masterOutgoingViewingPublicKey: string;
  masterTaggingPublicKey: string;
}

const POINT_HEX = /^(0x)?[0-9a-fA-F]{128}$/;
const KEYS = [
  'masterNullifierPublicKey',
  'masterIncomingViewingPublicKey',
  'masterOutgoingViewingPublicKey',
  'masterTaggingPublicKey',
] as const;

// 4.1.2's DEFAULT_*PK_M_* constants: the keys of an account that set none.
const DEFAULTS: readonly GrumpkinPoint[] = [
  [
    582240093077765400562621227108555700500271598878376310175765873770292988861n,
    10422444662424639723529825114205836958711284159673861467999592572974769103684n,
  ],
  [
    339708709767762472786445938838804872781183545349360029270386718856175781484n,
    12719619215050539905199178334954929730355853796706924300730604757520758976849n,
  ],
  [
    12212787719617305570587928860288475454328008955283046946846066128763901043335n,
    3646747884782549389807830220601404629716007431341772952958971658285958854707n,
  ],
  [
    728059161893070741164607238299536939695876538801885465230641192969135857403n,
    14575718736702206050102425029229426215631664471161015518982549597389390371695n,
  ],
].map(([x, y]) => ({ x: x as bigint, y: y as bigint, isInfinite: false }));

/**
 * The four master public keys of a contract instance or account (Grumpkin points). JSON: each point as
 * 0x + 128 hex (x then y, 32 bytes each). Their hash is part of the address preimage.
 */
export class PublicKeys {
  constructor(
    readonly masterNullifierPublicKey: GrumpkinPoint,
    readonly masterIncomingViewingPublicKey: GrumpkinPoint,
    readonly masterOutgoingViewingPublicKey: GrumpkinPoint,
    readonly masterTaggingPublicKey: GrumpkinPoint,
  ) {}

  static default(): PublicKeys {
    return new PublicKeys(DEFAULTS[0]!, DEFAULTS[1]!, DEFAULTS[2]!, DEFAULTS[3]!);
  }

  get points(): readonly GrumpkinPoint[] {
    return [
      this.masterNullifierPublicKey,
      this.masterIncomingViewingPublicKey,
      this.masterOutgoingViewingPublicKey,
      this.masterTaggingPublicKey,
    ];
  }

  isEmpty(): boolean {
    return this.points.every((p) => p.x === 0n && p.y === 0n);
  }

  /** Poseidon2 with PUBLIC_KEYS_HASH over (x, y, isInfinite) of each key; 0 when all keys are zero. */
  hash(): bigint {
    if (this.isEmpty()) return 0n;
    const f = new FieldWriter(12);
    for (const p of this.points) {
      f.field(p.x);
      f.field(p.y);
      f.bool(p.isInfinite);
    }
    return f.hashWithSeparator(DomainSeparator.PUBLIC_KEYS_HASH);
  }

  equals(other: PublicKeys): boolean {
    return this.points.every((p, i) => {
      const q = other.points[i] as GrumpkinPoint;
      return p.x === q.x && p.y === q.y && p.isInfinite === q.isInfinite;
    });
  }

  toJSON(): PublicKeysJson {
    return {
      masterNullifierPublicKey: pointToHex(this.masterNullifierPublicKey),
      masterIncomingViewingPublicKey: pointToHex(this.masterIncomingViewingPublicKey),
      masterOutgoingViewingPublicKey: pointToHex(this.masterOutgoingViewingPublicKey),
      masterTaggingPublicKey: pointToHex(this.masterTaggingPublicKey),
    };
  }

  static fromJSON(json: unknown, path = 'publicKeys'): PublicKeys {
    const o = readObject(json, path);
    const [a, b, c, d] = KEYS.map((k) => pointFromHex(readString(o[k], path, k), joinPath(path, k)));
    return new PublicKeys(a!, b!, c!, d!);
  }
}

/** A point as 0x + x (64 hex) + y (64 hex), the form 4.1.2 writes. */
export function pointToHex(p: GrumpkinPoint): string {
  return `0x${p.x.toString(16).padStart(64, '0')}${p.y.toString(16).padStart(64, '0')}`;
}

export function pointFromHex(s: string, path = 'point'): GrumpkinPoint {
  if (!POINT_HEX.test(s)) throw new DecodeError(path, 'expected a point as 0x + 128 hex digits (x then y)');
  const body = s.startsWith('0x') ? s.slice(2) : s;
  const x = BigInt(`0x${body.slice(0, 64)}`);
  const y = BigInt(`0x${body.slice(64)}`);
  if (x >= FR_MODULUS || y >= FR_MODULUS) throw new DecodeError(path, 'a coordinate is not below the field modulus');
  return { x, y, isInfinite: false };
}
