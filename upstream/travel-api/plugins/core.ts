import type { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openDatabase } from '../db.ts';
import { isV1Request } from './consumer-signature.ts';
import { FaultRegistry } from '../faults.ts';
import { Inventory } from '../inventory/inventory.ts';
import { TravelerStore } from '../travelers/traveler-store.ts';
import { TripStore } from '../trips/trip-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    faults: FaultRegistry;
    db: DatabaseSync;
    inventory: Inventory;
    trips: TripStore;
    travelers: TravelerStore;
  }
}

let sharedInventory: Inventory | undefined;

export const faultsPlugin = fp(
  (app: FastifyInstance, _options: unknown, done: () => void) => {
    app.decorate('faults', new FaultRegistry(app.travelConfig.TRAVEL_API_FAULTS));
    app.addHook('preHandler', async (request) => {
      if (isV1Request(request)) await app.faults.delay();
    });
    app.addHook('onClose', () => app.faults.dispose());
    done();
  },
  { name: 'faults' },
);

/** The sqlite database; closed last, after every plugin that uses it has closed. */
export const databasePlugin = fp(
  (app: FastifyInstance, _options: unknown, done: () => void) => {
    app.decorate('db', openDatabase(app.travelConfig.TRAVEL_API_DATA_DIR));
    app.addHook('onClose', () => app.db.close());
    done();
  },
  { name: 'db' },
);

/** Static inventory (read-only, shared by every instance in a process) and the travelers' data. */
export const storesPlugin = fp(
  (app: FastifyInstance, _options: unknown, done: () => void) => {
    sharedInventory ??= new Inventory();
    app.decorate('inventory', sharedInventory);
    const inventory = sharedInventory;
    app.decorate('trips', new TripStore(app.db, (place) => inventory.cityNamesOf(place)));
    app.decorate(
      'travelers',
      new TravelerStore(app.db, {
        seed: app.travelConfig.TRAVEL_API_SEED,
        airports: sharedInventory.majorAirports,
        trips: app.trips,
        cityNamesOf: (place) => inventory.cityNamesOf(place),
      }),
    );
    done();
  },
  { name: 'travelers', dependencies: ['db'] },
);
