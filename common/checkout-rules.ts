/** The checkout's rules that the cart (which previews) and the server (which decides) share. */

type AddressFields = {
  name: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
};

/**
 * An address the parcel can go to: name, street, city, postcode and country, and in the United
 * States the state as well (tax and shipping depend on it). Until then shipping shows N/A.
 */
export function isAddressComplete(address: AddressFields | null | undefined): address is AddressFields {
  if (!address) return false;
  const filled = (value: string) => value.trim().length > 0;
  const country = address.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) return false;
  return (
    filled(address.name) &&
    filled(address.street) &&
    filled(address.city) &&
    filled(address.zipCode) &&
    (country !== 'US' || filled(address.state))
  );
}

/** The smallest card payment the providers take, in cents (Stripe's minimum for USD). */
export const MINIMUM_CARD_PAYMENT = 50;
