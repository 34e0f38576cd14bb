export type SigningSecretName = 'current' | 'next';

export interface SigningSecret {
  name: SigningSecretName;
  secret: string;
}

/**
 * Which consumer secret the BFF signs with during a rotation. With only CONSUMER_SECRET there is
 * nothing to choose. With CONSUMER_NEXT_SECRET as well, the BFF signs with the next secret first; when
 * the travel API rejects a signature, the call is signed again once with the other secret, and the one
 * that worked becomes the secret used from then on. Either order of "rotate upstream" and "give the BFF
 * the next secret" therefore works without a failed request.
 */
export class SigningSecretSelector {
  readonly #secrets: { current: string; next: string | undefined };
  #active: SigningSecretName;

  constructor(current: string, next?: string) {
    this.#secrets = { current, next };
    this.#active = next === undefined ? 'current' : 'next';
  }

  active(): SigningSecret {
    return this.#secretNamed(this.#active);
  }

  /** The other configured secret, to try once after a rejected signature. */
  alternativeTo(name: SigningSecretName): SigningSecret | undefined {
    const other: SigningSecretName = name === 'current' ? 'next' : 'current';
    return this.#secrets[other] === undefined ? undefined : this.#secretNamed(other);
  }

  /** Records that a signature made with `name` was accepted. Returns true when this switched secrets. */
  confirm(name: SigningSecretName): boolean {
    if (this.#active === name) return false;
    this.#active = name;
    return true;
  }

  #secretNamed(name: SigningSecretName): SigningSecret {
    return { name, secret: this.#secrets[name] ?? this.#secrets.current };
  }
}
