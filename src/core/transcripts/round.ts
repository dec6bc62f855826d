// Times in seconds and scores are kept to the millisecond (three decimals) in what is stored and sent.
export const round = (value: number, places = 3): number => Math.round(value * 10 ** places) / 10 ** places;
