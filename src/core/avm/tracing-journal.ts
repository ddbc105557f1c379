/**
 * The journal a traced run uses: the same rules (it is an AvmJournal), each effect also reported to the tracer.
 * Storage reads made to check a contract instance's current class (the instance registry's slots) are lookups
 * of the machine, not the contract's SLOADs, so they are not reported.
 */
import { computePublicDataTreeLeafSlot } from '../hash/siloing.js';
import type { AvmContractInstance } from './avm-world.js';
import { AvmJournal, type AvmJournalOptions } from './journal.js';
import type { AvmTracer } from './tracer.js';

export class TracingAvmJournal extends AvmJournal {
  private instanceLookups = 0;

  constructor(
    options: AvmJournalOptions,
    readonly tracer: AvmTracer,
  ) {
    super(options);
  }

  override readStorage(contractAddress: bigint, slot: bigint): bigint {
    const value = super.readStorage(contractAddress, slot);
    if (this.instanceLookups === 0) this.tracer.storageRead(contractAddress, slot, value);
    return value;
  }

  override getContractInstance(address: bigint): AvmContractInstance | undefined {
    this.instanceLookups++;
    try {
      return super.getContractInstance(address);
    } finally {
      this.instanceLookups--;
    }
  }

  override writeStorage(contractAddress: bigint, slot: bigint, value: bigint, protocolWrite = false): void {
    this.instanceLookups++;
    let before: bigint;
    try {
      before = super.readStorage(contractAddress, slot);
    } finally {
      this.instanceLookups--;
    }
    super.writeStorage(contractAddress, slot, value, protocolWrite);
    const leafSlot = computePublicDataTreeLeafSlot(contractAddress, slot);
    this.tracer.storageWrite(contractAddress, slot, leafSlot, before, value, protocolWrite);
  }

  override emitNoteHash(contractAddress: bigint, noteHash: bigint): void {
    super.emitNoteHash(contractAddress, noteHash);
    const all = this.getSideEffects().noteHashes;
    this.tracer.noteHash(contractAddress, noteHash, all[all.length - 1] as bigint);
  }

  override emitNullifier(contractAddress: bigint, nullifier: bigint): boolean {
    const inserted = super.emitNullifier(contractAddress, nullifier);
    const all = this.getSideEffects().nullifiers;
    this.tracer.nullifier(contractAddress, nullifier, all[all.length - 1] as bigint, inserted);
    return inserted;
  }

  override emitPublicLog(contractAddress: bigint, fields: bigint[]): void {
    super.emitPublicLog(contractAddress, fields);
    this.tracer.publicLog(contractAddress, fields);
  }

  override insertL2ToL1Message(contractAddress: bigint, recipient: bigint, content: bigint): void {
    super.insertL2ToL1Message(contractAddress, recipient, content);
    this.tracer.l2ToL1Message(contractAddress, recipient, content);
  }
}
