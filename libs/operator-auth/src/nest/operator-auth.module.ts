import { Global, Module, type DynamicModule } from '@nestjs/common';
import { BusConnection } from '@warden/messaging';
import { OperatorStore } from '../operator-store.js';
import { OperatorAuthGuard } from './operator-auth.guard.js';
import { OPERATOR_AUTH_OPTIONS, OperatorAuthenticator, type OperatorAuthOptions } from './operator-authenticator.js';

/**
 * Operator authentication for a service's HTTP routes: `@UseGuards(OperatorAuthGuard)` with
 * `@Requires('decide')` where reading is not enough. Needs the service's BusConnection (the store lives
 * in JetStream KV).
 */
@Global()
@Module({})
export class OperatorAuthModule {
  static forRoot(options: OperatorAuthOptions = {}): DynamicModule {
    return {
      module: OperatorAuthModule,
      providers: [
        { provide: OPERATOR_AUTH_OPTIONS, useValue: options },
        { provide: OperatorStore, useFactory: (bus: BusConnection) => new OperatorStore(bus.nc), inject: [BusConnection] },
        OperatorAuthenticator,
        OperatorAuthGuard,
      ],
      exports: [OperatorStore, OperatorAuthenticator, OperatorAuthGuard],
    };
  }
}
