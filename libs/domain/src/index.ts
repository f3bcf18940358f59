export * from './accounts/username.rules';
export * from './accounts/password.rules';
export * from './accounts/login-redirect.rules';
export * from './catalog/categories';
export * from './money/money.rules';
export * from './bidding/increment.rules';
export * from './listings/listing-status.rules';
export * from './listings/listing-metrics.rules';
