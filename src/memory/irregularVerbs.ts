// English irregular verb forms → their base form (went → go, met → meet, won → win), so a
// question in the present ("when did she win") finds a memory in the past ("she won"); Porter2
// only strips regular endings. Forms that are more often another word are left out ("rose",
// "ground", "wound", "lay", "lit", "rang"), and "bear"/"born" are not joined.
const PAIRS = [
  'arisen:arise arose:arise ate:eat awoke:awake awoken:awake became:become began:begin begun:begin',
  'bent:bend bit:bite bitten:bite bled:bleed blew:blow blown:blow bought:buy bred:breed broke:break',
  'broken:break brought:bring built:build burnt:burn came:come caught:catch chose:choose',
  'chosen:choose clung:cling crept:creep dealt:deal drank:drink drawn:draw dreamt:dream drew:draw',
  'driven:drive drove:drive drunk:drink dug:dig eaten:eat fallen:fall fed:feed fell:fall felt:feel',
  'fled:flee flew:fly flown:fly forbade:forbid forbidden:forbid forgave:forgive forgiven:forgive',
  'forgot:forget forgotten:forget fought:fight found:find froze:freeze frozen:freeze gave:give',
  'given:give gone:go grew:grow grown:grow heard:hear held:hold hid:hide hidden:hide hung:hang',
  'kept:keep knelt:kneel knew:know known:know leant:lean leapt:leap learnt:learn led:lead',
  'left:leave lent:lend lost:lose made:make meant:mean met:meet paid:pay ran:run ridden:ride',
  'risen:rise rode:ride sang:sing sank:sink sat:sit saw:see seen:see sent:send shaken:shake',
  'shone:shine shook:shake shot:shoot showed:show shown:show shrank:shrink shrunk:shrink',
  'slept:sleep slid:slide sold:sell sought:seek sped:speed spent:spend spoke:speak spoken:speak',
  'spun:spin stank:stink stole:steal stolen:steal stood:stand struck:strike stuck:stick stung:sting',
  'stunk:stink sung:sing sunk:sink swam:swim swept:sweep swore:swear sworn:swear swum:swim',
  'swung:swing taken:take taught:teach thought:think threw:throw thrown:throw told:tell took:take',
  'tore:tear torn:tear understood:understand went:go wept:weep woke:wake woken:wake won:win',
  'wore:wear worn:wear written:write wrote:write',
].join(' ');

const BASE_OF: ReadonlyMap<string, string> = new Map(
  PAIRS.split(' ').map((pair) => pair.split(':') as [string, string]),
);

/** The base form of an irregular past or participle; the word itself otherwise. */
export const baseForm = (word: string): string => BASE_OF.get(word) ?? word;
