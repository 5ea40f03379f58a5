import { readFileSync } from 'node:fs';
import { resolveCountry } from '@app/countries';
import * as isoCountries from 'i18n-iso-countries';

/** The map's outlines: Natural Earth's countries at 1:110m, as world-atlas publishes them. */
export const WORLD_SHAPES_FILE = 'world-atlas/countries-110m.json';

interface Geometry {
  id?: string;
  properties?: { name?: string; iso3?: string };
}
interface Topology {
  objects: { countries: { geometries: Geometry[] } };
}

/**
 * The outlines with each country's ISO alpha-3 code added (`properties.iso3`), the code the
 * public answers carry: world-atlas names shapes by ISO numeric code, and leaves it out for the
 * few places without one (Kosovo, found by name; Northern Cyprus and Somaliland stay without).
 * The country directory has the last word, so that its corrections (Kosovo's XKX) apply here too.
 */
export function worldShapes(): Buffer {
  const topology = JSON.parse(readFileSync(require.resolve(WORLD_SHAPES_FILE), 'utf8')) as Topology;
  for (const shape of topology.objects.countries.geometries) {
    const alpha3 = shape.id === undefined ? undefined : isoCountries.numericToAlpha3(shape.id);
    const iso3 = resolveCountry(alpha3 ?? shape.properties?.name ?? '')?.iso3;
    if (iso3) shape.properties = { ...shape.properties, iso3 };
  }
  return Buffer.from(JSON.stringify(topology));
}
