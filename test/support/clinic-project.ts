import type { ModelFileJson } from '../../core/model/types.js';
import type { OracleModel } from './guard-oracle.js';

/**
 * A project of four models linked by shared states, shaped like GraphWalker's PetClinic example (issue 22):
 * a clinic's home page, from which the owners' pages and the vets' list are entered through shared states,
 * and an owner's page that leads on to visits. Only the clinic has a start element; the others are entered
 * through shared states only, and every model returns to the home page through one. The guards read shared
 * `global.` variables that other models' actions write: owners must be saved before a search finds one (a
 * threshold), a pet before a visit, a discharge needs two visits and resets them (a reset), the owners' list
 * is cleared at three (a reset at a threshold), and the vets' page counts its views without bound, with a
 * guard on their remainder; visits too may be added without bound until a discharge. So the walk's states are
 * endless. Every edge is coverable by one walk.
 */

type Edge = { id: string; sourceVertexId: string; targetVertexId: string; guard?: string; actions?: string[] };
type Vertex = { id: string; sharedState?: string };

function model(id: string, start: string | undefined, actions: string[], vertices: Vertex[], edges: Edge[]): OracleModel & { id: string } {
  return {
    id,
    name: id,
    ...(start === undefined ? {} : { startElementId: start }),
    actions,
    vertices: vertices.map((v) => ({ name: v.id, ...v })),
    edges: edges.map((e) => ({ name: e.id, ...e })),
  } as OracleModel & { id: string };
}

/** The home page: opens the clinic, and leads to the owners' search and the vets' list. */
export const clinic = model('Clinic', 'v_Start', ['global.owners = 0;', 'global.pets = 0;', 'global.visits = 0;', 'global.views = 0;'], [
  { id: 'v_Start' },
  { id: 'v_Home', sharedState: 'HomePage' },
  { id: 'v_FindOwners', sharedState: 'FindOwners' },
  { id: 'v_Vets', sharedState: 'Veterinarians' },
], [
  { id: 'e_Open', sourceVertexId: 'v_Start', targetVertexId: 'v_Home' },
  { id: 'e_ToFindOwners', sourceVertexId: 'v_Home', targetVertexId: 'v_FindOwners' },
  { id: 'e_ToVets', sourceVertexId: 'v_Home', targetVertexId: 'v_Vets' },
  { id: 'e_Welcome', sourceVertexId: 'v_Home', targetVertexId: 'v_Home', guard: 'global.visits >= 1' },
]);

/** Finding and adding owners: a search finds one only once one was saved, and the list is cleared at three. */
export const owners = model('Owners', undefined, [], [
  { id: 'v_FindOwners', sharedState: 'FindOwners' },
  { id: 'v_NewOwner' },
  { id: 'v_OwnerList', sharedState: 'OwnerInformation' },
  { id: 'v_OwnersHome', sharedState: 'HomePage' },
], [
  { id: 'e_AddOwner', sourceVertexId: 'v_FindOwners', targetVertexId: 'v_NewOwner', guard: 'global.owners < 3' },
  { id: 'e_SaveOwner', sourceVertexId: 'v_NewOwner', targetVertexId: 'v_FindOwners', actions: ['global.owners++;'] },
  { id: 'e_Search', sourceVertexId: 'v_FindOwners', targetVertexId: 'v_OwnerList', guard: 'global.owners > 0' },
  { id: 'e_ClearOwners', sourceVertexId: 'v_OwnerList', targetVertexId: 'v_FindOwners', guard: 'global.owners >= 3', actions: ['global.owners = 0;'] },
  { id: 'e_OwnersHome', sourceVertexId: 'v_OwnerList', targetVertexId: 'v_OwnersHome' },
]);

/** An owner's page: pets and visits, a discharge after two visits that resets them. */
export const visits = model('Visits', undefined, [], [
  { id: 'v_Owner', sharedState: 'OwnerInformation' },
  { id: 'v_VisitsHome', sharedState: 'HomePage' },
], [
  { id: 'e_AddPet', sourceVertexId: 'v_Owner', targetVertexId: 'v_Owner', guard: 'global.pets < 2', actions: ['global.pets++;'] },
  { id: 'e_AddVisit', sourceVertexId: 'v_Owner', targetVertexId: 'v_Owner', guard: 'global.pets >= 1', actions: ['global.visits++;'] },
  { id: 'e_Discharge', sourceVertexId: 'v_Owner', targetVertexId: 'v_Owner', guard: 'global.visits >= 2', actions: ['global.pets = 0;', 'global.visits = 0;'] },
  { id: 'e_VisitsHome', sourceVertexId: 'v_Owner', targetVertexId: 'v_VisitsHome' },
]);

/** The vets' list: its views count up without bound, and a specialty filter shows on every third. */
export const vets = model('Vets', undefined, [], [
  { id: 'v_Vets', sharedState: 'Veterinarians' },
  { id: 'v_VetList' },
  { id: 'v_VetsHome', sharedState: 'HomePage' },
], [
  { id: 'e_ListVets', sourceVertexId: 'v_Vets', targetVertexId: 'v_VetList', actions: ['global.views++;'] },
  { id: 'e_Refresh', sourceVertexId: 'v_VetList', targetVertexId: 'v_VetList', actions: ['global.views++;'] },
  { id: 'e_Specialty', sourceVertexId: 'v_VetList', targetVertexId: 'v_VetList', guard: 'global.views % 3 == 0' },
  { id: 'e_VetsHome', sourceVertexId: 'v_VetList', targetVertexId: 'v_VetsHome' },
]);

export const CLINIC_MODELS: ReadonlyArray<OracleModel & { id: string }> = [clinic, owners, vets, visits];

/** The project as one file, every model with `generator` (the tests and the bench replace it as they need). */
export function clinicFile(generator = 'shortest_all_paths(edge_coverage(100))'): ModelFileJson {
  return { name: 'clinic', models: CLINIC_MODELS.map((m) => ({ ...m, generator })) } as unknown as ModelFileJson;
}
