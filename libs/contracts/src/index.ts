export * from './rpc';
export * from './subjects';
export * from './events';
export * from './errors';
export * from './auth/auth.schemas';
export * from './auth/account.schemas';
export * from './auth/user.dto';
export * from './admin/admin.schemas';
