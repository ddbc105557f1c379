import { Help, type Interfaces } from '@oclif/core';

/**
 * oclif's help with one fix: a topic is listed when some command id starts with it, not merely contains it
 * (oclif 5 lists `config` as a topic because of `admin config get`, and the root help shows it twice).
 */
export default class RootHelp extends Help {
  protected override get sortedTopics(): Interfaces.Topic[] {
    const ids = this.config.commands.map((c) => c.id);
    return super.sortedTopics.filter((t) => ids.some((id) => id.startsWith(`${t.name}:`)));
  }
}
