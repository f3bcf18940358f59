import type { ContactForm, ContactResponse } from '@market/contracts';
import { api } from '../lib/api';

/** POST /api/contact (SPEC §7): the public contact form. */
export const contactApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendContact: build.mutation<ContactResponse, ContactForm>({
      query: (body) => ({ url: '/contact', method: 'POST', body }),
    }),
  }),
});

export const { useSendContactMutation } = contactApi;
