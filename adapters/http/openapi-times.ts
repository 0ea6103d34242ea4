// The game's time zone in the OpenAPI document: every time in a request or answer is
// game-local, `YYYY-MM-DDTHH:mm:ss` without an offset, so the document says which zone
// (master data's game.timezoneOffsetMinutes, given as "+09:00"): in info, and in the
// time components every time field refers to.

/** The paragraph of info.description on times. */
export const timesParagraph = (timeZone: string): string =>
  `**Times.** Every time in a request or an answer (\`serverTime\`, \`createdAt\`, a period's \`startAt\` ...) is \`YYYY-MM-DDTHH:mm:ss\` in the game's time zone, UTC${timeZone} (also \`info.x-time-zone\`), written without the offset: \`2026-12-31T23:59:59\` is \`2026-12-31T23:59:59${timeZone}\`. \`GET /api/app/version/get\` answers the zone as \`timeZone\`. Game days (daily limits, log-in bonuses, a gacha's weekdays) start at the daily reset hour in that zone.`;

/** The descriptions of the time components (the rest are in openapi-components.ts). */
export const timeDescriptions = (timeZone: string): Record<string, string> => ({
  WireTime: `A time in an answer: \`YYYY-MM-DDTHH:mm:ss\` in the game's time zone, UTC${timeZone}, without the offset.`,
  LocalTime: `A time in a request: \`YYYY-MM-DDTHH:mm:ss\` in the game's time zone, UTC${timeZone}, without the offset (as answers give times).`,
});
