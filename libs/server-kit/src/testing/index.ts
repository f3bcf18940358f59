export * from './test-database';
export * from './test-env';
export * from './tcp-proxy';
export * from './eventually';
export * from './factories';
export * from './running-services';
export * from './smtp-sink';
export * from './images';
