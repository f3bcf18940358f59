import type { ListingFieldProps } from '../../components/form/ListingFields';

/** What every form step gets: the values, their errors and a setter. */
export type StepProps = ListingFieldProps;
