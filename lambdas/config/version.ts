/** Herald's version, sent as `User-Agent: Herald/<version>`; a unit test keeps it equal to package.json. */
export const HERALD_VERSION = '0.1.0';
