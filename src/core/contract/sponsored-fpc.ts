/**
 * The canonical sponsored fee payment contract (SponsoredFPC): a contract whose private `sponsor_unconditionally`
 * makes it the fee payer of any tx, so a brand-new account can pay for its own deployment. Aztec 4.1.2's local
 * network funds it with FeeJuice at genesis (its `sponsoredFPC` setting) and aztec.js's `SponsoredFeePaymentMethod`
 * names it as fee payer; its address is SponsoredFPC instantiated with SPONSORED_FPC_SALT (0), no deployer and no
 * initializer, the same on every network. Its data comes from the published 4.1.2 artifact
 * (sponsored-fpc-generated.ts).
 */
import { AztecAddress } from '../aztec-address.js';
import { Fr } from '../fr.js';
import type { ContractClassPublic } from './contract-class-public.js';
import { ContractInstanceWithAddress } from './contract-instance-with-address.js';
import { contractClassOf } from './protocol-contract-data.js';
import { PublicKeys } from './public-keys.js';
import { SPONSORED_FPC_DATA } from './sponsored-fpc-generated.js';

export interface SponsoredFpc {
  readonly address: AztecAddress;
  readonly contractClass: ContractClassPublic;
  readonly instance: ContractInstanceWithAddress;
}

const classId = Fr.fromString(SPONSORED_FPC_DATA.classId);

export const SPONSORED_FPC: SponsoredFpc = {
  address: new AztecAddress(SPONSORED_FPC_DATA.address),
  contractClass: contractClassOf(SPONSORED_FPC_DATA),
  instance: new ContractInstanceWithAddress(
    Fr.fromString(SPONSORED_FPC_DATA.salt),
    AztecAddress.fromString(SPONSORED_FPC_DATA.deployer),
    classId,
    classId,
    Fr.fromString(SPONSORED_FPC_DATA.initializationHash),
    PublicKeys.default(),
    new AztecAddress(SPONSORED_FPC_DATA.address),
  ),
};
