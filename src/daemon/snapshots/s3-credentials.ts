import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@aws-sdk/types';

/** Where s3:// credentials are looked for, in order: named in the error when none is found. */
export const S3_CREDENTIAL_SOURCES_LOCAL = [
  'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
  'AWS_PROFILE (or the default profile) in ~/.aws/credentials and ~/.aws/config, SSO profiles included',
  'a credential_process of that profile',
  'AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN',
] as const;
export const S3_CREDENTIAL_SOURCES_METADATA =
  'the container (AWS_CONTAINER_CREDENTIALS_*) or EC2 instance metadata service, since --snapshot-s3-metadata-credentials is on';

/**
 * s3:// credentials from the machine's own configuration only, unless the operator opts in to the metadata
 * services. The AWS SDK's default chain ends by asking the EC2 instance metadata service (an HTTP request to
 * 169.254.169.254): on a machine that is not an EC2 instance that is traffic the operator never asked for, sent
 * to an address the node was never told about. So the chain here stops at the local sources; with
 * `metadataCredentials` it goes on to the container credentials endpoint (when its variables are set) and then
 * the instance metadata service, as the SDK's chain does. The first source that has credentials wins.
 */
export function s3Credentials(metadataCredentials: boolean): AwsCredentialIdentityProvider {
  let cached: Promise<AwsCredentialIdentity> | undefined;
  const resolve = async (): Promise<AwsCredentialIdentity> => {
    const providers = [...(await localProviders()), ...(metadataCredentials ? await metadataProviders() : [])];
    for (const provider of providers) {
      try {
        return await provider();
      } catch {
        // This source has none: the next one is tried; the error below names them all.
      }
    }
    const looked = [...S3_CREDENTIAL_SOURCES_LOCAL, ...(metadataCredentials ? [S3_CREDENTIAL_SOURCES_METADATA] : [])];
    throw new Error(
      `no AWS credentials found; looked for ${looked.join('; ')}` +
        (metadataCredentials
          ? ''
          : ' (the EC2 instance metadata service is not asked unless --snapshot-s3-metadata-credentials is on)'),
    );
  };
  return async () => {
    try {
      // Credentials that expire (profiles with roles, metadata) are looked up again five minutes before they do.
      cached ??= resolve();
      const current = await cached;
      if (current.expiration && current.expiration.getTime() - Date.now() < 300_000) {
        cached = resolve();
        return await cached;
      }
      return current;
    } catch (err) {
      // Nothing found now may be found later (a key exported, a profile written): never cache a failure.
      cached = undefined;
      throw err;
    }
  };
}

/** The machine's own sources, loaded with the SDK (on first use of an s3:// URL, never by a plain start). */
async function localProviders(): Promise<AwsCredentialIdentityProvider[]> {
  const [{ fromEnv }, { fromIni }, { fromProcess }, { fromTokenFile }] = await Promise.all([
    import('@aws-sdk/credential-provider-env'),
    import('@aws-sdk/credential-provider-ini'),
    import('@aws-sdk/credential-provider-process'),
    import('@aws-sdk/credential-provider-web-identity'),
  ]);
  return [
    // With AWS_PROFILE set, the profile wins over the variables (the SDK's rule).
    ...(process.env.AWS_PROFILE ? [] : [fromEnv()]),
    fromIni(),
    fromProcess(),
    fromTokenFile(),
  ];
}

/** The metadata services, loaded only when the operator opted in. */
async function metadataProviders(): Promise<AwsCredentialIdentityProvider[]> {
  const { fromContainerMetadata, fromInstanceMetadata } = await import('@smithy/credential-provider-imds');
  const container =
    process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI || process.env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI;
  if (container) {
    const { fromHttp } = await import('@aws-sdk/credential-provider-http');
    return [fromHttp(), fromContainerMetadata()];
  }
  return [fromInstanceMetadata()];
}
