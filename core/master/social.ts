// Master data of the social and adventure group (quests, achievements, chests, offers).
export const socialFiles = {};
