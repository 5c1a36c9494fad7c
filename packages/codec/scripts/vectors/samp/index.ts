/** SA:MP's test vectors, one file a message group; a new file is listed here. */
import type { Case } from '../builder.ts';
import { ompCases } from './omp.ts';
import { pingRconCases } from './ping-rcon.ts';
import { queryCases } from './queries.ts';

export const sampCases: Case[] = [...queryCases, ...pingRconCases, ...ompCases];
