export const auth = true;
